// Types of server-build.mjs, for the template compiler's test.
import type { BuildOptions } from 'esbuild';
export declare function serverBuildOptions(opts?: { entry?: string; outfile?: string; templates?: boolean; write?: boolean }): BuildOptions;
