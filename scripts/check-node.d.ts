// Types for check-node.js, which stays JavaScript so that any older Node can run it.
export declare const NEEDED_NODE_MAJOR: number;
export declare function nodeTooOld(version?: string, execPath?: string): string | null;
export declare function requireNode(): void;
