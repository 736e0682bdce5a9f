import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { McpClient } from '../../../../src/protocol/client';
import { enableSkills, skillsExtension, type Skill, type SkillsApi } from '../../../../src/protocol/extensions/skills';
import { StdioTransport } from '../../../../src/protocol/node/stdio';
import { planInstall, type InstallPlan } from '../../../../src/workbench/skills/installPlan';
import { installSkill } from '../../../../src/workbench/skills/installSkill';
import { checkInstallTarget, nodeSkillFileWriter } from '../../../../src/workbench/node/skillTarget';
import { REPO_ROOT } from '../../../support/testSupport';

const SERVER = path.join(REPO_ROOT, 'test', 'fixtures', 'skills', 'skillsServer.mjs');
const clients: McpClient[] = [];
const folders: string[] = [];
after(async () => {
  for (const client of clients) await client.close();
  for (const folder of folders) fs.rmSync(folder, { recursive: true, force: true });
});

async function pdfSkill(): Promise<{ skills: SkillsApi; skill: Skill; plan: Extract<InstallPlan, { kind: 'ready' }> }> {
  const client = new McpClient({
    serverName: 'server-a',
    transport: new StdioTransport({ command: process.execPath, args: [SERVER], shutdownGraceMs: 1000 }),
    requestTimeoutMs: 10_000,
    extensions: [enableSkills()],
  });
  clients.push(client);
  await client.connect();
  const skills = client.extension(skillsExtension)!;
  const [skill] = (await skills.list()).skills;
  const plan = planInstall('server-a', skill, []);
  if (plan.kind !== 'ready') throw new Error(plan.reason);
  return { skills, skill, plan };
}

function tempFolder(prefix: string): string {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  folders.push(folder);
  return folder;
}

/** A workspace and, beside it, an "outside" folder holding a file the install must never touch. */
function workspaceAndOutside(): { root: string; outside: string; keys: string } {
  const root = tempFolder('skills-target-ws-');
  const outside = tempFolder('skills-target-outside-');
  const keys = path.join(outside, 'authorized_keys');
  fs.writeFileSync(keys, 'ssh-ed25519 AAAA original\n');
  return { root, outside, keys };
}

describe('skills: the install target on disk', () => {
  for (const linked of [
    ['.github', 'skills'],
    ['.github', 'skills', 'pdf-processing'],
  ]) {
    test(`${linked.join('/')} as a symlink to a folder outside the workspace is refused; the outside file is unchanged`, async () => {
      const { skills, skill, plan } = await pdfSkill();
      const { root, outside, keys } = workspaceAndOutside();
      fs.mkdirSync(path.join(root, ...linked.slice(0, -1)), { recursive: true });
      fs.symlinkSync(outside, path.join(root, ...linked), 'dir');
      const check = await checkInstallTarget(root, plan);
      assert.equal(check.kind, 'refused');
      if (check.kind === 'refused')
        assert.match(check.reason, new RegExp(`^${linked.join('/')} is a symbolic link; not writing through it`));
      // The writer refuses on its own too (a link planted after the check).
      await assert.rejects(
        installSkill(skills, skill, plan, nodeSkillFileWriter(root)),
        /is a symbolic link; not writing through it/,
      );
      assert.equal(fs.readFileSync(keys, 'utf8'), 'ssh-ed25519 AAAA original\n');
      assert.deepEqual(fs.readdirSync(outside), ['authorized_keys']);
    });
  }

  test('a file inside the skill folder that is a symlink is refused; its target is unchanged', async () => {
    const { skills, skill, plan } = await pdfSkill();
    const { root, outside, keys } = workspaceAndOutside();
    const folder = path.join(root, '.github', 'skills', 'pdf-processing');
    fs.mkdirSync(folder, { recursive: true });
    fs.symlinkSync(keys, path.join(folder, 'SKILL.md'), 'file');
    const check = await checkInstallTarget(root, plan);
    assert.equal(check.kind, 'refused');
    if (check.kind === 'refused')
      assert.match(check.reason, /^\.github\/skills\/pdf-processing\/SKILL\.md is a symbolic link/);
    await assert.rejects(installSkill(skills, skill, plan, nodeSkillFileWriter(root)), /SKILL\.md is a symbolic link/);
    assert.equal(fs.readFileSync(keys, 'utf8'), 'ssh-ed25519 AAAA original\n');
    assert.deepEqual(fs.readdirSync(outside), ['authorized_keys']);
  });

  test('a normal install is ready, replaces nothing and writes every file as data', async () => {
    const { skills, skill, plan } = await pdfSkill();
    const root = tempFolder('skills-target-ws-');
    assert.deepEqual(await checkInstallTarget(root, plan), { kind: 'ready', replaces: [] });
    const outcome = await installSkill(skills, skill, plan, nodeSkillFileWriter(root));
    assert.equal(outcome.kind, 'installed');
    const folder = path.join(root, '.github', 'skills', 'pdf-processing');
    assert.deepEqual(fs.readdirSync(folder).sort(), ['SKILL.md', 'assets', 'references', 'scripts']);
    // The writer's own mode: data, never executable.
    assert.equal(fs.statSync(path.join(folder, 'scripts', 'fill.py')).mode & 0o111, 0);
  });

  test('files that already exist are reported as replaced, and are overwritten', async () => {
    const { skills, skill, plan } = await pdfSkill();
    const root = tempFolder('skills-target-ws-');
    const folder = path.join(root, '.github', 'skills', 'pdf-processing');
    fs.mkdirSync(path.join(folder, 'references'), { recursive: true });
    fs.writeFileSync(path.join(folder, 'SKILL.md'), 'old');
    fs.writeFileSync(path.join(folder, 'references', 'FORMS.md'), 'old');
    const check = await checkInstallTarget(root, plan);
    assert.equal(check.kind, 'ready');
    if (check.kind === 'ready') assert.deepEqual([...check.replaces].sort(), ['SKILL.md', 'references/FORMS.md']);
    const outcome = await installSkill(skills, skill, plan, nodeSkillFileWriter(root));
    assert.equal(outcome.kind, 'installed');
    assert.notEqual(fs.readFileSync(path.join(folder, 'SKILL.md'), 'utf8'), 'old');
  });
});
