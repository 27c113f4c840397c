// webpack: the perf flags through DefinePlugin, and a check that fails the
// compilation on an unknown group used in a module.
//   plugins: [new WebprofPerfWebpackPlugin({ enable: true, probes: ['framework'] })]
// or only the values: new webpack.DefinePlugin(perfDefine({ enable: true })).
import { perfDefine, resolvePerfFlags, scanForUnknownGroups } from './index.mjs';

export { perfDefine };

export class WebprofPerfWebpackPlugin {
  constructor(options) {
    const { known, define } = resolvePerfFlags(options); // throws on a bad configuration
    this.known = known;
    this.define = define;
  }

  apply(compiler) {
    const { DefinePlugin, WebpackError } = compiler.webpack;
    new DefinePlugin(this.define).apply(compiler);
    compiler.hooks.compilation.tap('webprof-perf', (compilation) => {
      compilation.hooks.succeedModule.tap('webprof-perf', (module) => {
        const resource = module.resource || '';
        if (!resource || resource.includes('/node_modules/')) return;
        const source = module.originalSource && module.originalSource();
        if (!source) return;
        try {
          scanForUnknownGroups(String(source.source()), resource, this.known);
        } catch (e) {
          compilation.errors.push(new WebpackError(e.message));
        }
      });
    });
  }
}
