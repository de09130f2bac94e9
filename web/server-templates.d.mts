// Types of server-templates.mjs, for its test.
import type { Plugin } from 'esbuild';
export declare function compileTemplates(source: string, fileName: string, helpers: string): { code: string; compiled: number };
export declare function serverTemplates(opts: { src: string; helpers: string }): Plugin;
