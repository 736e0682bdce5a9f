import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { McpClient } from '../../../../src/protocol/client';
import { enableSkills, skillsExtension, type SkillsApi } from '../../../../src/protocol/extensions/skills';
import { StdioTransport } from '../../../../src/protocol/node/stdio';
import { planInstall, updateStatus, type InstalledSkill } from '../../../../src/workbench/skills/installPlan';
import { installSkill, type SkillFileWriter } from '../../../../src/workbench/skills/installSkill';
import { REPO_ROOT } from '../../../support/testSupport';

const SERVER = path.join(REPO_ROOT, 'test', 'fixtures', 'skills', 'skillsServer.mjs');
const clients: McpClient[] = [];
const folders: string[] = [];
after(async () => {
  for (const client of clients) await client.close();
  for (const folder of folders) fs.rmSync(folder, { recursive: true, force: true });
});

async function connect(serverName: string, flags: string[] = []): Promise<{ client: McpClient; skills: SkillsApi }> {
  const client = new McpClient({
    serverName,
    transport: new StdioTransport({ command: process.execPath, args: [SERVER, ...flags], shutdownGraceMs: 1000 }),
    requestTimeoutMs: 10_000,
    extensions: [enableSkills()],
  });
  clients.push(client);
  await client.connect();
  return { client, skills: client.extension(skillsExtension)! };
}

function tempWorkspace(): { root: string; writer: SkillFileWriter } {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'skills-install-'));
  folders.push(root);
  return {
    root,
    writer: {
      write: async (segments, bytes) => {
        const file = path.join(root, ...segments);
        fs.mkdirSync(path.dirname(file), { recursive: true });
        fs.writeFileSync(file, bytes);
      },
    },
  };
}

describe('skills: install into the workspace', () => {
  test('plans every listed file under .github/skills/<name>/ and writes them once all are verified', async () => {
    const { skills } = await connect('server-a');
    const [pdf] = (await skills.list()).skills;
    const plan = planInstall('server-a', pdf, []);
    assert.equal(plan.kind, 'ready');
    if (plan.kind !== 'ready') return;
    assert.deepEqual(plan.folder, ['.github', 'skills', 'pdf-processing']);
    assert.deepEqual(plan.files.map((file) => file.path.join('/')).sort(), [
      'SKILL.md',
      'assets/logo.png',
      'references/FORMS.md',
      'scripts/fill.py',
    ]);
    const { root, writer } = tempWorkspace();
    const outcome = await installSkill(skills, pdf, plan, writer);
    assert.equal(outcome.kind, 'installed');
    const folder = path.join(root, '.github', 'skills', 'pdf-processing');
    assert.match(fs.readFileSync(path.join(folder, 'SKILL.md'), 'utf8'), /^---\nname: pdf-processing/);
    assert.deepEqual(
      [...fs.readFileSync(path.join(folder, 'assets', 'logo.png'))].slice(0, 4),
      [0x89, 0x50, 0x4e, 0x47],
    );
    // Written as data, never made executable.
    assert.equal(fs.statSync(path.join(folder, 'scripts', 'fill.py')).mode & 0o111, 0);
  });

  test('a tampered file refuses the whole install: nothing is written', async () => {
    const { skills } = await connect('server-a', ['--tamper-file=digest']);
    const [pdf] = (await skills.list()).skills;
    const plan = planInstall('server-a', pdf, []);
    assert.equal(plan.kind, 'ready');
    if (plan.kind !== 'ready') return;
    const { root, writer } = tempWorkspace();
    const outcome = await installSkill(skills, pdf, plan, writer);
    assert.equal(outcome.kind, 'refused');
    if (outcome.kind === 'refused')
      assert.match(outcome.message, /server-a: refused skill:\/\/pdf-processing\/references\/FORMS.md/);
    assert.equal(fs.existsSync(path.join(root, '.github')), false);
  });

  test("a skill of another origin never takes an installed skill's folder; the same origin replaces it", async () => {
    const { skills } = await connect('server-a');
    const [pdf] = (await skills.list()).skills;
    const fromB: InstalledSkill = {
      server: 'server-b',
      uri: pdf.uri,
      name: 'pdf-processing',
      folder: ['.github', 'skills', 'pdf-processing'],
      files: [],
    };
    const refused = planInstall('server-a', pdf, [fromB]);
    assert.equal(refused.kind, 'refused');
    if (refused.kind === 'refused')
      assert.match(refused.reason, /already holds the skill "pdf-processing" from server-b/);
    const same = planInstall('server-b', pdf, [fromB]);
    assert.equal(same.kind, 'ready');
  });

  test('an installed skill whose digests changed on the server is an update', async () => {
    const { client, skills } = await connect('server-a');
    const [pdf] = (await skills.list()).skills;
    const plan = planInstall('server-a', pdf, []);
    if (plan.kind !== 'ready') throw new Error('not ready');
    const { writer } = tempWorkspace();
    const outcome = await installSkill(skills, pdf, plan, writer);
    if (outcome.kind !== 'installed') throw new Error(outcome.message);
    assert.deepEqual(updateStatus([outcome.record], 'server-a', pdf), { kind: 'current' });
    assert.deepEqual(
      updateStatus([outcome.record], 'server-b', pdf),
      { kind: 'not-installed' },
      'keyed by (server, uri)',
    );
    await client.callTool('bump');
    const [changed] = (await skills.list({ refresh: true })).skills;
    assert.deepEqual(updateStatus([outcome.record], 'server-a', changed), {
      kind: 'changed',
      files: ['skill://pdf-processing/references/FORMS.md'],
    });
  });
});
