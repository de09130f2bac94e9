// Types of preact-aliases.mjs, for vite.config.ts.
export declare const preactAliases: { find: RegExp; replacement: string }[];
export declare const preactEsbuildAlias: Record<string, string>;
