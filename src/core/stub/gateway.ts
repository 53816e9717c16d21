const REASONS: Record<number, string> = {
  502: 'Bad Gateway',
  503: 'Service Temporarily Unavailable',
  504: 'Gateway Time-out',
};

/**
 * `Prefer: code=502|503|504`: what the proxy in front of a Django deployment sends when the
 * application does not answer: a plain HTML page of its own (nginx's, the most common), with
 * Django's headers absent, since Django never saw the request.
 */
export function gatewayPage(status: 502 | 503 | 504): {
  status: number;
  headers: Record<string, string>;
  body: string;
} {
  const title = `${status} ${REASONS[status] ?? ''}`;
  return {
    status,
    headers: { 'content-type': 'text/html' },
    body: `<html>\r\n<head><title>${title}</title></head>\r\n<body>\r\n<center><h1>${title}</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n`,
  };
}
