#!/usr/bin/env node
// Runs the TypeScript CLI through tsx's loader, so the installed command and `npm start` run the same code.
import { register } from 'tsx/esm/api';

register();
await import('../src/cli.ts');
