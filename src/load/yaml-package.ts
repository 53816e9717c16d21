import { createRequire } from 'node:module';
import type * as Yaml from 'yaml';

let loaded: typeof Yaml | undefined;

/**
 * The `yaml` package, loaded when first needed: a spec that js-yaml reads cleanly, served by a stub
 * nobody has asked for `/openapi.yaml` yet, never needs it, and its seventy-odd modules are about a
 * tenth of a second of every start-up. (Its CommonJS build, required synchronously.)
 */
export function yamlPackage(): typeof Yaml {
  loaded ??= createRequire(import.meta.url)('yaml') as typeof Yaml;
  return loaded;
}
