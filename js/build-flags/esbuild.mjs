// esbuild plugin: defines the perf flags and fails the build on an unknown
// group, either in the configuration or used in a source file.
//   esbuild.build({ plugins: [webprofPerf({ enable: true, probes: ['user'] })], minify: true })
import { readFile } from 'node:fs/promises';
import { resolvePerfFlags, scanForUnknownGroups } from './index.mjs';

export function webprofPerf(options) {
  const { known, define } = resolvePerfFlags(options); // throws on a bad configuration
  return {
    name: 'webprof-perf',
    setup(build) {
      build.initialOptions.define = { ...build.initialOptions.define, ...define };
      build.onLoad({ filter: /\.[cm]?[jt]sx?$/ }, async (args) => {
        if (args.path.includes('/node_modules/')) return undefined;
        const source = await readFile(args.path, 'utf8');
        try {
          scanForUnknownGroups(source, args.path, known);
        } catch (e) {
          return { errors: [{ text: e.message }] };
        }
        return undefined; // esbuild loads the file itself
      });
    },
  };
}
