// The build-time plugins as each bundler's own plugin type takes them, and the
// perf flags as the application's code reads them.
import type { Plugin as EsbuildPlugin } from 'esbuild';
import type { Plugin as RollupPlugin } from 'rollup';
import type { Plugin as VitePlugin } from 'vite';
import type { WebpackPluginInstance } from 'webpack';
import { webprofPerf as esbuildPerf } from 'webprof/build-flags/esbuild';
import { webprofPerf as rollupPerf, type PerfFlagsOptions } from 'webprof/build-flags/rollup';
import { WebprofPerfWebpackPlugin, perfDefine } from 'webprof/build-flags/webpack';
import { webprofSampling as esbuildSampling } from 'webprof/transform/esbuild';
import { webprofSampling as rollupSampling, transformForSampling } from 'webprof/transform/rollup';
import { webprofSampling as viteSampling, type SamplingOptions } from 'webprof/transform/vite';
import { aggrStart, aggrEnd } from 'webprof/perf';

const options: PerfFlagsOptions = { enable: true, probes: ['user', 'net'], groups: ['net'] };
const sampling: SamplingOptions = { exclude: /node_modules/, runtime: null };
export const esbuildPlugins: EsbuildPlugin[] = [esbuildPerf(options), esbuildSampling(sampling)];
export const rollupPlugins: RollupPlugin[] = [rollupPerf({ enable: false }), rollupSampling()];
export const vitePlugins: VitePlugin[] = [rollupPerf(), viteSampling()];
export const webpackPlugins: WebpackPluginInstance[] = [new WebprofPerfWebpackPlugin(options)];
export const define: Record<string, string> = perfDefine({ enable: true });
// @ts-expect-error `probes` is a list of group names
esbuildPerf({ probes: 'user' });

export async function sample(code: string): Promise<number> {
  const r = await transformForSampling(code, { format: 'esm' });
  return r.sites;
}

// A project group's flag is the project's to declare (webprof.d.ts says how).
declare global {
  const __webprof_perf_net__: boolean;
}
export function probed(): void {
  let id = -1;
  if (__webprof_perf_user__) id = aggrStart('user');
  if (__webprof_perf__ && __webprof_perf_framework__ && __webprof_perf_net__) aggrEnd(id);
}
