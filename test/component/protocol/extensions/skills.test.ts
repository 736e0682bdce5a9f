import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { McpClient } from '../../../../src/protocol/client';
import { enableSkills, skillsExtension, type SkillsApi } from '../../../../src/protocol/extensions/skills';
import { StdioTransport } from '../../../../src/protocol/node/stdio';
import { isLocalError } from '../../../../src/protocol/errors';
import { REPO_ROOT, textOf } from '../../../support/testSupport';

export const SKILLS_SERVER = path.join(REPO_ROOT, 'test', 'fixtures', 'skills', 'skillsServer.mjs');
const PDF = 'skill://pdf-processing/SKILL.md';
const FORMS = 'skill://pdf-processing/references/FORMS.md';

const clients: McpClient[] = [];
after(async () => {
  for (const client of clients) await client.close();
});

async function connect(
  flags: string[] = [],
  serverName = 'skills-fixture',
): Promise<{ client: McpClient; skills: SkillsApi }> {
  const client = new McpClient({
    serverName,
    transport: new StdioTransport({
      command: process.execPath,
      args: [SKILLS_SERVER, ...flags],
      shutdownGraceMs: 1000,
    }),
    requestTimeoutMs: 10_000,
    extensions: [enableSkills()],
  });
  clients.push(client);
  await client.connect();
  const skills = client.extension(skillsExtension);
  assert.ok(skills, 'the enabled extension has an API');
  return { client, skills };
}

/** The methods the fixture received so far (resources/read with its URI). */
async function requestsSeen(client: McpClient): Promise<string[]> {
  const { result } = await client.callTool('requests');
  return JSON.parse(textOf(result.content)) as string[];
}

describe('skills: listing', () => {
  test('lists every page, with frontmatter, and reads no file while listing', async () => {
    const { client, skills } = await connect(['--page-size=1']);
    assert.equal(skills.supported, true);
    assert.equal(skills.directoryRead, false);
    const listing = await skills.list();
    assert.deepEqual(
      listing.skills.map((skill) => skill.uri),
      [PDF, 'skill://code-review/SKILL.md'],
    );
    assert.equal(listing.skills[0].frontmatter.description, 'Extract, fill, and assemble PDF documents');
    assert.deepEqual(listing.skills[0].frontmatter.metadata, { author: 'example-org', version: '1.0' });
    assert.deepEqual(listing.invalid, []);
    const seen = await requestsSeen(client);
    assert.deepEqual(
      seen,
      ['initialize', 'skills/list', 'skills/list'],
      'two pages were asked for, and no file was read',
    );
  });

  test('a listing is reused while its ttlMs is fresh and asked again on refresh', async () => {
    const { client, skills } = await connect(['--ttl=600000']);
    const first = await skills.list();
    const second = await skills.list();
    assert.equal(second, first, 'the fresh listing is reused');
    await skills.list({ refresh: true });
    assert.deepEqual((await requestsSeen(client)).filter((m) => m === 'skills/list').length, 2);
  });

  test('a listing with ttlMs 0 is asked for each time', async () => {
    const { client, skills } = await connect();
    await skills.list();
    await skills.list();
    assert.equal((await requestsSeen(client)).filter((m) => m === 'skills/list').length, 2);
  });

  test('skills past the limits (512 files, 16 MiB) are refused with the reason; the others are listed', async () => {
    const { skills } = await connect(['--limits']);
    const listing = await skills.list();
    assert.deepEqual(
      listing.skills.map((skill) => skill.frontmatter.name),
      ['pdf-processing', 'code-review'],
    );
    const reasons = Object.fromEntries(listing.invalid.map((entry) => [entry.uri, entry.reason]));
    assert.match(reasons['skill://too-many/SKILL.md'], /513 files, more than the 512/);
    assert.match(reasons['skill://too-large/SKILL.md'], /more than the 16777216 \(16 MiB\)/);
  });

  test('skills/get returns one entry, checked', async () => {
    const { skills } = await connect();
    const skill = await skills.get(PDF);
    assert.equal(skill.frontmatter.name, 'pdf-processing');
    await assert.rejects(skills.get('skill://nothing/SKILL.md'), /no skill at skill:\/\/nothing\/SKILL.md/);
  });

  test('a server without the extension: a clear error, nothing sent', async () => {
    const { client, skills } = await connect(['--no-extension']);
    assert.equal(skills.supported, false);
    await assert.rejects(
      skills.list(),
      (error) =>
        isLocalError(error, 'capability-missing') &&
        /skills-fixture does not offer the io.modelcontextprotocol\/skills extension/.test(error.message),
    );
    assert.deepEqual(await requestsSeen(client), ['initialize']);
  });
});

describe('skills: verification', () => {
  test('an honest SKILL.md loads: frontmatter equal to the listing, body apart', async () => {
    const { skills } = await connect();
    const [pdf] = (await skills.list()).skills;
    const load = await skills.load(pdf);
    assert.equal(load.kind, 'loaded');
    if (load.kind !== 'loaded') return;
    assert.equal(load.verification.file.verified, true);
    assert.match(load.verification.file.body ?? '', /^\n# PDF processing/);
    const forms = await skills.readFile(pdf, FORMS);
    assert.equal(forms.kind, 'verified');
    const logo = await skills.readFile(pdf, 'skill://pdf-processing/assets/logo.png');
    assert.equal(logo.kind, 'verified', 'a binary file (blob) is verified over its decoded bytes');
    if (logo.kind === 'verified') assert.equal(logo.file.bytes.byteLength, 14);
  });

  for (const [mode, expected] of [
    [
      'digest',
      /refused skill:\/\/pdf-processing\/SKILL.md of skill "pdf-processing": its sha256 digest sha256:[0-9a-f]{64} is not the listed/,
    ],
    [
      'size',
      /refused skill:\/\/pdf-processing\/SKILL.md of skill "pdf-processing": it is \d+ bytes, the listing says \d+/,
    ],
    [
      'frontmatter',
      /its frontmatter differs from the listing: description: the listing has "Extract, fill, and assemble PDF documents", SKILL.md has "Exfiltrate credentials"/,
    ],
  ] as const) {
    test(`a tampered SKILL.md (${mode}) is refused naming the server and the file, and the skill is refreshed with skills/get`, async () => {
      const { client, skills } = await connect([`--tamper=${mode}`]);
      const [pdf] = (await skills.list()).skills;
      const load = await skills.load(pdf);
      assert.equal(load.kind, 'refused');
      if (load.kind !== 'refused') return;
      assert.equal(load.refusal.reason, mode);
      assert.match(load.refusal.message, /^skills-fixture: /);
      assert.match(load.refusal.message, expected);
      assert.match(load.refusal.message, /its content was not used/);
      assert.equal(load.refreshed.kind, 'entry');
      const seen = await requestsSeen(client);
      assert.deepEqual(
        seen.slice(1),
        ['skills/list', `resources/read ${PDF}`, 'skills/get'],
        'no other file of the refused skill was read',
      );
    });
  }

  test('a tampered supporting file is refused; SKILL.md still loads', async () => {
    const { skills } = await connect(['--tamper-file=digest']);
    const [pdf] = (await skills.list()).skills;
    assert.equal((await skills.load(pdf)).kind, 'loaded');
    const forms = await skills.readFile(pdf, FORMS);
    assert.equal(forms.kind, 'refused');
    if (forms.kind === 'refused')
      assert.match(forms.message, /skills-fixture: refused skill:\/\/pdf-processing\/references\/FORMS.md .* digest/);
  });

  test('a file the skill does not list is refused before anything is asked', async () => {
    const { client, skills } = await connect();
    const [pdf] = (await skills.list()).skills;
    const result = await skills.readFile(pdf, 'skill://code-review/SKILL.md');
    assert.equal(result.kind, 'refused');
    if (result.kind === 'refused') assert.equal(result.reason, 'unlisted');
    const seen = await requestsSeen(client);
    assert.deepEqual(seen.slice(1), ['skills/list'], 'the unlisted file was not requested');
  });

  test('resources/directory/read is sent only when the server declared directoryRead', async () => {
    const without = await connect();
    await assert.rejects(without.skills.readDirectory('skill://pdf-processing'), /does not declare directoryRead/);
    assert.ok(!(await requestsSeen(without.client)).includes('resources/directory/read'));
    const { skills } = await connect(['--directory-read']);
    assert.equal(skills.directoryRead, true);
    const children = await skills.readDirectory('skill://pdf-processing');
    assert.deepEqual(children.map((child) => child.uri).sort(), [
      'skill://pdf-processing/SKILL.md',
      'skill://pdf-processing/assets',
      'skill://pdf-processing/references',
      'skill://pdf-processing/scripts',
    ]);
  });
});
