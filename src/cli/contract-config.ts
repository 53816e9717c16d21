import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { InvalidArgumentError, Option } from 'commander';
import type { Pair, YAMLMap } from 'yaml';
import { nearest } from '../openapi/words.js';
import { corsOrigin } from '../contract/proxy/cors.js';
import {
  checkBaseUrl,
  COMMANDS,
  type ContractCommand,
  type Kind,
  parseHeaders,
  type Setting,
  SETTINGS,
} from './contract-options.js';

/** The config file read from the working directory when no --config names another. */
export const CONFIG_FILE = 'workplace-stub.config.json';
/** The variable that names the config file, as --config does. */
export const CONFIG_ENV = 'WORKPLACE_STUB_CONFIG';

/** The settings of one run, each from the first source that gives it. */
export type Settings = Readonly<Record<string, unknown>>;
export type Resolved = { ok: true; settings: Settings; file: string | undefined } | { ok: false; errors: string[] };

/** A value and where it was given, for a message that names the place. */
interface Given {
  readonly value: unknown;
  /** `--timeout`, `WORKPLACE_STUB_BASE_URL`, `workplace-stub.config.json:4:3: check.timeout`. */
  readonly where: string;
  readonly source: 'cli' | 'env' | 'file';
  /** A file's value, checked already when the file was read (undefined: it was wrong). */
  readonly checked?: true;
  /** The setting's name in the file or the variable's, for a suggestion. */
  readonly name?: string;
}

/** The command-line property commander gives a flag (`--base-url` → `baseUrl`). */
export const attributeOf = (flag: string): string => new Option(flag).attributeName();
/** `--base-url` of `--base-url <url>`. */
export const longFlag = (flag: string): string => new Option(flag).long ?? flag;

/** The settings `command` takes. */
export const settingsOf = (command: ContractCommand): Setting[] => SETTINGS.filter((s) => s.commands.includes(command));

/**
 * One run's settings, each from the first of: the command line, its environment variable, the
 * config file's section for the command, the config file's top, the default. Every value is
 * checked where it was given, and every problem is reported (file, line and column for the file),
 * not the first. `headers` merge by name in the same order, so a token from the environment and a
 * header on the command line both go.
 */
export async function resolveSettings(
  command: ContractCommand,
  flags: Readonly<Record<string, unknown>>,
  env: Readonly<Record<string, string | undefined>>,
  cwd: string,
): Promise<Resolved> {
  const errors: string[] = [];
  const nonEmpty = (name: string) => (env[name] === undefined || env[name] === '' ? undefined : env[name]);
  const named = (flags.config as string | undefined) ?? nonEmpty(CONFIG_ENV);
  const fromFile = await readConfig(command, named, cwd, errors);
  const settings: Record<string, unknown> = {};
  for (const setting of settingsOf(command)) {
    const given: Given[] = [];
    const cli = flags[attributeOf(setting.flag)];
    if (cli !== undefined && !(Array.isArray(cli) && cli.length === 0))
      given.push({ value: cli, where: longFlag(setting.flag), source: 'cli' });
    const variable = setting.env === undefined ? undefined : nonEmpty(setting.env);
    if (variable !== undefined && setting.env) given.push({ value: variable, where: setting.env, source: 'env' });
    given.push(...(fromFile.get(setting.key) ?? []));
    const value = settle(setting, given, errors);
    if (value !== undefined) settings[setting.key] = value;
    else if (setting.default !== undefined) settings[setting.key] = setting.default;
    // Not said again of a value given but wrong, nor while the file could not be read.
    else if (setting.required && given.length === 0 && !fromFile.broken) {
      // Commander's words for a missing option, then the other ways to give it.
      const ways = [setting.env && `set ${setting.env}`, `"${setting.key}" in ${CONFIG_FILE}`].filter(Boolean);
      errors.push(`required option '${setting.flag}' not specified: give it, or ${ways.join(', or ')}`);
    }
  }
  if (errors.length > 0) return { ok: false, errors };
  return { ok: true, settings: Object.freeze(settings), file: fromFile.file };
}

/** The value of a setting from what was given, first source first; headers merged by name. */
function settle(setting: Setting, given: readonly Given[], errors: string[]): unknown {
  if (setting.kind !== 'headers') {
    const first = given[0];
    return first === undefined ? undefined : checked(setting, first, errors);
  }
  if (given.length === 0) return undefined;
  const merged: Record<string, string> = {};
  // The last source first, so that each earlier one overrides it header by header.
  for (const g of [...given].reverse()) Object.assign(merged, checked(setting, g, errors) ?? {});
  return merged;
}

/** A value checked as its kind requires, converted; undefined (and an error) when it is wrong. */
function checked(setting: Setting, g: Given, errors: string[]): unknown {
  if (g.checked) return g.value;
  const refused = (error: string) => {
    errors.push(error);
    return undefined;
  };
  const wrong = (message: string) => refused(`${g.where}: ${message}`);
  const v = g.value;
  const fromText = g.source !== 'file';
  const kind: Kind = setting.kind;
  switch (kind) {
    case 'boolean':
      if (typeof v === 'boolean') return v;
      if (fromText && /^(1|true|yes)$/i.test(String(v))) return true;
      if (fromText && /^(0|false|no)$/i.test(String(v))) return false;
      return wrong('must be true or false');
    case 'integer':
    case 'size':
    case 'list': {
      if (g.source === 'cli') return v; // commander parsed it with setting.parse
      if (kind === 'list' && Array.isArray(v)) {
        if (!v.every((x) => typeof x === 'string')) return wrong('must be a list of names');
        return v.join(',') === '' ? [] : setting.parse?.(v.join(','));
      }
      const text = typeof v === 'number' && kind !== 'list' ? String(v) : typeof v === 'string' ? v : undefined;
      if (text === undefined)
        return wrong(
          kind === 'list' ? 'must be a list of names' : `must be a ${kind === 'size' ? 'size' : 'whole number'}`,
        );
      try {
        return setting.parse ? setting.parse(text) : text;
      } catch (e) {
        return wrong(e instanceof InvalidArgumentError ? e.message.replace(/\.$/, '') : String(e));
      }
    }
    case 'choice':
      if (typeof v !== 'string' || !(setting.choices ?? []).includes(v))
        return wrong(`must be one of ${(setting.choices ?? []).join(', ')}`);
      return v;
    case 'text':
    case 'path':
      if (typeof v !== 'string' || v === '') return wrong('must be a text');
      return v;
    case 'url': {
      if (typeof v !== 'string') return wrong('must be an http(s) URL');
      const error = checkBaseUrl(v, g.where, (root) =>
        g.source === 'cli'
          ? `${g.where} ${root}`
          : g.source === 'env'
            ? `${g.where}=${root}`
            : `"${g.name ?? ''}": "${root}"`,
      );
      return error === undefined ? v : refused(error);
    }
    case 'headers': {
      let lines: string[];
      if (g.source === 'cli') lines = v as string[];
      else if (g.source === 'env')
        lines = String(v)
          .split(/\r?\n/)
          .filter((l) => l.trim() !== '');
      else if (v !== null && typeof v === 'object' && !Array.isArray(v)) {
        const entries = Object.entries(v as Record<string, unknown>);
        const bad = entries.find(([, x]) => typeof x !== 'string');
        if (bad) return wrong(`${bad[0]}: a header's value is a text`);
        lines = entries.map(([name, x]) => `${name}: ${String(x)}`);
      } else return wrong('must be an object of headers, {"Authorization": "Token …"}');
      const parsed = parseHeaders(lines, g.where);
      return parsed.ok ? parsed.headers : refused(parsed.error);
    }
    case 'origins': {
      if (!Array.isArray(v) || !v.every((x) => typeof x === 'string'))
        return wrong('must be a list of origins, ["https://dev.example.org"]');
      const out: string[] = [];
      for (const x of v as string[]) {
        const o = corsOrigin(x);
        if (o.ok) out.push(o.origin);
        else errors.push(g.source === 'cli' ? o.error : `${g.where}: ${o.error.replace(/^--cors-origin /, '')}`);
      }
      return out;
    }
  }
}

/** What the config file gives, by setting key: the command's section first, then the top. */
interface FileValues {
  readonly file: string | undefined;
  /** The file is there but could not be read as settings. */
  readonly broken: boolean;
  get(key: string): Given[] | undefined;
}

async function readConfig(
  command: ContractCommand,
  named: string | undefined,
  cwd: string,
  errors: string[],
): Promise<FileValues> {
  const none: FileValues = { file: undefined, broken: false, get: () => undefined };
  const broken: FileValues = { ...none, broken: true };
  const file = path.resolve(cwd, named ?? CONFIG_FILE);
  const shown = path.relative(cwd, file) || file;
  if (named === undefined && !(await stat(file).catch(() => undefined))?.isFile()) return none;
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (e) {
    errors.push(`${shown}: cannot be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
    return broken;
  }
  // Loaded only for a config file: every command's start (`serve` too) registers these options.
  const { isMap, isScalar, LineCounter, parseDocument } = await import('yaml');
  const lineCounter = new LineCounter();
  const at = (offset: number | undefined) => {
    if (offset === undefined) return shown;
    const { line, col } = lineCounter.linePos(offset);
    return `${shown}:${line}:${col}`;
  };
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    const message = (e as Error).message;
    const pos = /position (\d+)/.exec(message);
    parseDocument(text, { lineCounter }); // only to count the lines, for the place
    errors.push(`${at(pos ? Number(pos[1]) : undefined)}: not JSON: ${message}`);
    return broken;
  }
  const doc = parseDocument(text, { lineCounter, uniqueKeys: true });
  if (data === null || typeof data !== 'object' || Array.isArray(data) || !isMap(doc.contents)) {
    errors.push(`${shown}: must be a JSON object of settings, {"baseUrl": "https://staging.example.org"}`);
    return broken;
  }
  for (const e of doc.errors)
    if (e.code === 'DUPLICATE_KEY') errors.push(`${at(e.pos[0])}: a key given twice (JSON keeps the last silently)`);
  const dir = path.dirname(file);
  const byKey = new Map<string, Given[]>();
  const take = (map: YAMLMap, section: ContractCommand | undefined) => {
    const allowed = section ? settingsOf(section) : SETTINGS;
    for (const pair of map.items as Pair[]) {
      const key = isScalar(pair.key) ? String(pair.key.value) : '';
      const place = at(isScalar(pair.key) ? pair.key.range?.[0] : undefined);
      const name = section ? `${section}.${key}` : key;
      if (!section && (COMMANDS as readonly string[]).includes(key)) {
        if (isMap(pair.value)) take(pair.value, key as ContractCommand);
        else errors.push(`${place}: ${key}: must be an object of the ${key} command's settings`);
        continue;
      }
      if (!section && key === '$schema') continue;
      const setting =
        allowed.find((s) => s.key === key && s.commands.includes(command)) ?? allowed.find((s) => s.key === key);
      if (!setting) {
        const known = [...new Set(allowed.map((s) => s.key))];
        const near = nearest(key, section ? known : [...known, ...COMMANDS]);
        errors.push(
          `${place}: ${name}: unknown setting${near ? `; did you mean ${near}?` : ''} (${section ? `${section} takes` : 'the settings are'} ${known.join(', ')}${section ? '' : `, and a section for each of ${COMMANDS.join(', ')}`})`,
        );
        continue;
      }
      const holder = (section ? (data as Record<string, unknown>)[section] : data) as Record<string, unknown>;
      const raw = holder[key];
      const where = `${at((pair.value as { range?: readonly number[] } | null)?.range?.[0])}: ${name}`;
      // Every value is checked, whichever command runs: a mistake waits for no other run.
      const value = checked(
        setting,
        {
          value: setting.kind === 'path' && typeof raw === 'string' ? path.resolve(dir, raw) : raw,
          where,
          source: 'file',
          name: key,
        },
        errors,
      );
      if (!setting.commands.includes(command) || (section !== undefined && section !== command)) continue;
      const list = byKey.get(key) ?? [];
      const given: Given = { value, where, source: 'file', checked: true };
      // The command's section before the top: it is the nearer.
      if (section) list.unshift(given);
      else list.push(given);
      byKey.set(key, list);
    }
  };
  take(doc.contents, undefined);
  return { file, broken: false, get: (key) => byKey.get(key) };
}
