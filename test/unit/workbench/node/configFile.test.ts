import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { readConfigFile } from '../../../../src/workbench/node/configFile';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'config-file-'));
const at = (name: string) => path.join(dir, name);

test('a config file is read; a missing one is missing', async () => {
  fs.writeFileSync(at('ok.json'), '\ufeff{"mcpServers":{}}');
  assert.deepEqual(await readConfigFile(at('ok.json')), { kind: 'text', text: '{"mcpServers":{}}' });
  assert.deepEqual(await readConfigFile(at('none.json')), { kind: 'missing' });
  assert.deepEqual(await readConfigFile(path.join(at('ok.json'), 'x')), { kind: 'missing' });
});

test('hostile files are refused with a reason: too large, a symlink loop, a folder, a named pipe', async () => {
  fs.writeFileSync(at('big.json'), Buffer.alloc(2048, 32));
  const big = await readConfigFile(at('big.json'), 1024);
  assert.ok(big.kind === 'refused' && /larger than the 1 KB/.test(big.reason), JSON.stringify(big));
  fs.symlinkSync(at('loop-b'), at('loop-a'));
  fs.symlinkSync(at('loop-a'), at('loop-b'));
  const loop = await readConfigFile(at('loop-a'));
  assert.ok(loop.kind === 'refused' && /symbolic link loop/.test(loop.reason), JSON.stringify(loop));
  fs.mkdirSync(at('folder.json'));
  const folder = await readConfigFile(at('folder.json'));
  assert.ok(folder.kind === 'refused', JSON.stringify(folder));
  if (process.platform !== 'win32') {
    // A pipe with no writer: a plain read would wait for one forever.
    execFileSync('mkfifo', [at('pipe.json')]);
    const pipe = await readConfigFile(at('pipe.json'));
    assert.ok(pipe.kind === 'refused' && /not a regular file/.test(pipe.reason), JSON.stringify(pipe));
  }
});

test.after(() => fs.rmSync(dir, { recursive: true, force: true }));
