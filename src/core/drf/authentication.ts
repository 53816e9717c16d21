import { pythonB64decode } from '../python/base64.js';
import { DRF_ERRORS, type DrfError } from '../errors.js';

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
