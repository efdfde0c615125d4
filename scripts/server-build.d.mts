// Types for server-build.mjs, which stays plain JavaScript so that `npm start` needs no tsx.
export declare const repoRoot: string;
export declare const serverEntries: readonly string[];
export type ServerBuildState =
  { state: 'missing' } | { state: 'stale'; newer: string } | { state: 'fresh' };
export declare function serverBuildState(root?: string): ServerBuildState;
export declare function buildServer(options?: { root?: string }): Promise<void>;
export declare function ensureServerBuild(root?: string): Promise<void>;
export declare function requireServerBuild(root?: string): Promise<void>;
export declare const serverNodeOptions: readonly string[];
export declare function compiledEntryArgs(entry: string, root?: string): string[];
export declare function runCompiled(entry: string, args?: string[], env?: NodeJS.ProcessEnv): void;
