/**
 * DRF's OPTIONS answer, SimpleMetadata (rest_framework/metadata.py): the view's name and
 * description, what it renders and parses. A viewset's name is its class name, `<Item>ViewSet`,
 * without `ViewSet`, in words, with the route's suffix (views.get_view_name); its description is
 * its docstring: none unless the list operation states one (`x-view-description`).
 */

// rest_framework/utils/formatting.py camelcase_to_spaces, then str.title().
export function camelcaseToSpaces(name: string): string {
  const spaced = name.replace(/((?<=[a-z])[A-Z])|([A-Z](?![A-Z]|$))/g, ' $&').trim();
  return spaced
    .split('_')
    .join(' ')
    .replace(/[A-Za-z]+/g, (w) => w.charAt(0).toUpperCase() + w.slice(1).toLowerCase());
}

/** The parsers of DRF's default DEFAULT_PARSER_CLASSES. */
export const PARSES = Object.freeze(['application/json', 'application/x-www-form-urlencoded', 'multipart/form-data']);

export function viewMetadata(
  name: string,
  description: string,
  formats: readonly string[],
  actions?: Record<string, unknown>,
): Record<string, unknown> {
  const out: Record<string, unknown> = {
    name,
    description,
    // One JSON renderer per format (JSONRenderer, and the `api` one the document implies).
    renders: formats.map(() => 'application/json'),
    parses: PARSES,
  };
  if (actions !== undefined && Object.keys(actions).length > 0) out.actions = actions;
  return out;
}
