// Debian's chromium (.ci/run installs it) for the tests that run a real browser; a browser that
// downloads itself fails on these machines.
import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-sync',
  '--disable-component-update',
  '--disable-quic',
];

/**
 * On CI the browser is required; on a developer's machine without it the browser tests are
 * skipped, with a message saying how to run them, so that `npm test` works on a fresh clone.
 */
export const SKIP_BROWSER = !existsSync(CHROMIUM) && process.env.CI !== 'true' && process.env.REQUIRE_BROWSER !== '1';
if (SKIP_BROWSER)
  process.stderr.write(
    `\n[browser test skipped] no chromium at ${CHROMIUM}: apt-get install -y chromium (or set CHROMIUM_PATH) to run it\n`,
  );

/** Fails the suite, saying what to install, where the browser is required and missing. */
export function requireChromium(): void {
  if (!existsSync(CHROMIUM))
    throw new Error(`no browser at ${CHROMIUM}: apt-get install -y chromium (or set CHROMIUM_PATH)`);
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: FLAGS });
}
