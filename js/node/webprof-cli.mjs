#!/usr/bin/env node
// The `webprof` bin of the package.
import { main } from './cli.mjs';

process.exitCode = await main(process.argv.slice(2));
