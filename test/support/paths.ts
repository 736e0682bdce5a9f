import * as path from 'node:path';

/** The repository's root folder, wherever under test/ the file that asks lives. */
export const repoRoot = path.resolve(__dirname, '..', '..');
