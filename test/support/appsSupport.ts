/** Where the MCP Apps tests find their servers: the published examples in node_modules and the apps fixture. */
import * as path from 'node:path';
import { REPO_ROOT } from './testSupport';

const MODULES = path.join(REPO_ROOT, 'node_modules', '@modelcontextprotocol');
export const BASIC_APP_SERVER = path.join(MODULES, 'server-basic-vanillajs', 'dist', 'index.js');
export const DEBUG_APP_SERVER = path.join(MODULES, 'server-debug', 'dist', 'index.js');
export const MAP_APP_SERVER = path.join(MODULES, 'server-map', 'dist', 'index.js');
export const APPS_FIXTURE = path.join(REPO_ROOT, 'test', 'fixtures', 'apps', 'appServer.mjs');
