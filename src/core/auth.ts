import { DRF_ERRORS, type DrfError } from './errors.js';

/**
 * DRF's default authentication classes, SessionAuthentication then BasicAuthentication
 * (rest_framework/authentication.py). No session exists in the stub and its user table is empty,
 * so a request is anonymous (and allowed: AllowAny), unless it sends Basic credentials, which fail
 * as they would on a deployment that does not know them. Other schemes (Token, Bearer) are not
 * DRF's defaults and are ignored, as the service ignores them.
 */
export function authenticate(authorization: string | undefined): DrfError | undefined {
  if (authorization === undefined) return undefined;
  // get_authorization_header(request).split(): bytes.split() on ASCII white space.
  const parts = authorization.split(/[ \t\n\v\f\r]+/).filter(Boolean);
  if (parts.length === 0 || parts[0]?.toLowerCase() !== 'basic') return undefined;
  if (parts.length === 1) return DRF_ERRORS.BASIC_NO_CREDENTIALS;
  if (parts.length > 2) return DRF_ERRORS.BASIC_SPACES;
  const decoded = pythonB64decode(parts[1] as string);
  if (decoded === undefined || !decoded.includes(':')) return DRF_ERRORS.BASIC_NOT_BASE64;
  return DRF_ERRORS.INVALID_USERNAME_PASSWORD;
}

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/**
 * `base64.b64decode(s)` (not strict: characters outside the alphabet are skipped) decoded as UTF-8,
 * else latin-1 (which always succeeds); undefined where Python raises binascii.Error.
 */
export function pythonB64decode(s: string): string | undefined {
  const bytes: number[] = [];
  let acc = 0;
  let bits = 0;
  let quad = 0;
  let pads = 0;
  for (const ch of s) {
    if (ch === '=') {
      // Padding ends the data once it completes a quad.
      if (quad >= 2 && quad + ++pads >= 4) break;
      continue;
    }
    const v = ALPHABET.indexOf(ch);
    if (v < 0 || ch.length !== 1) continue;
    pads = 0;
    acc = (acc << 6) | v;
    bits += 6;
    quad = (quad + 1) % 4;
    if (bits >= 8) {
      bits -= 8;
      bytes.push((acc >> bits) & 0xff);
    }
  }
  if (quad === 1) return undefined;
  if (quad !== 0 && quad + pads < 4) return undefined;
  const data = Uint8Array.from(bytes);
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(data);
  } catch {
    return String.fromCharCode(...data);
  }
}
