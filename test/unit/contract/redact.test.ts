import { describe, expect, it } from 'vitest';
import { REDACTED, Redactor, secretsOfHeader } from '../../../src/contract/redact.js';

const b64 = (s: string) => Buffer.from(s).toString('base64');

describe('secretsOfHeader: the credential parts of a header value', () => {
  it.each<[string, string, string[]]>([
    ['a token after its scheme', 'Token abc123', ['Token abc123', 'abc123']],
    [
      'a Basic credential decoded, and its password',
      `Basic ${b64('qa:s3cret')}`,
      [`Basic ${b64('qa:s3cret')}`, b64('qa:s3cret'), 'qa:s3cret', 's3cret'],
    ],
    ['Basic that is no credential is not decoded', 'Basic !!!!', ['Basic !!!!', '!!!!']],
    ['cookie values', 'sessionid=abcd; csrftoken=efgh', ['sessionid=abcd; csrftoken=efgh', 'abcd', 'efgh']],
    ['a bare value', 'k3y', ['k3y']],
  ])('%s', (_name, value, want) => {
    expect(secretsOfHeader(value)).toEqual(want);
  });
});

describe('Redactor: a secret in every form a deployment may echo it', () => {
  const secret = 'p@ss/w0rd "é"';
  const r = new Redactor([secret]);
  // Python's quote(safe=''): every byte but the unreserved ones, here in lower-case hex.
  const pct = [...Buffer.from(secret)]
    .map((b) =>
      /[A-Za-z0-9\-._~]/.test(String.fromCharCode(b)) ? String.fromCharCode(b) : `%${b.toString(16).padStart(2, '0')}`,
    )
    .join('');
  it.each<[string, string]>([
    ['raw', secret],
    ['JSON-escaped', JSON.stringify(secret).slice(1, -1)],
    ['JSON-escaped, ASCII only', JSON.stringify(secret).slice(1, -1).replace('é', '\\u00e9')],
    ['JSON with an escaped solidus', JSON.stringify(secret).slice(1, -1).replace('/', '\\/')],
    ['encodeURIComponent', encodeURIComponent(secret)],
    ['form-encoded (+ for space)', encodeURIComponent(secret).replaceAll('%20', '+')],
    ['percent-encoded, lower-case hex', pct],
    ['HTML-escaped', secret.replace('"', '&quot;').replace('"', '&quot;')],
    ['base64', b64(secret)],
    ['base64url', Buffer.from(secret).toString('base64url')],
    ['base64 of a longer value it is inside', b64(`tok=${secret}&more`)],
  ])('%s', (_name, form) => {
    const shown = r.redact(`before ${form} after`);
    expect(shown).toContain(REDACTED);
    expect(shown).not.toContain(form);
    expect(shown.startsWith('before ')).toBe(true);
  });

  it('leaves values too short to be secrets, and text without a secret, as they are', () => {
    expect(new Redactor(['abc']).redact('abc abc')).toBe('abc abc');
    expect(new Redactor([]).redact('anything')).toBe('anything');
    expect(r.redact('nothing here')).toBe('nothing here');
  });

  it('forHeaders: values are secrets, names and the headers that carry none are not', () => {
    const h = Redactor.forHeaders({ Accept: 'application/json', Authorization: 'Token zzzz9999' }, ['morebits']);
    expect(h.redact('application/json Token zzzz9999 zzzz9999 morebits')).toBe(
      `application/json ${REDACTED} ${REDACTED} ${REDACTED}`,
    );
  });

  it('safe: redacts, escapes control characters, clips', () => {
    expect(r.safe(`a\u001b[2J ${secret}`, 100)).toBe(`a\\u001b[2J ${REDACTED}`);
    expect(r.safe('x'.repeat(20), 5)).toBe('xxxxx…');
  });

  it('safe: a secret cut by the read window never shows in part', () => {
    const s = 'A-VERY-LONG-SECRET-TOKEN-0123456789';
    const long = new Redactor([s]);
    // The second copy starts 20 past max and is cut by the window (max + longest); the first,
    // redacted, is shorter than the secret, so without dropping the cut tail it would show.
    const text = `${s}${'x'.repeat(10)}${s}${'z'.repeat(200)}`;
    const shown = long.safe(text, 25);
    expect(shown.startsWith(REDACTED)).toBe(true);
    expect(shown).not.toContain('A-VER');
    expect(shown.endsWith('…')).toBe(true);
  });
});
