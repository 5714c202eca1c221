import { describe, expect, it } from 'vitest';
import { plantedSecrets } from './planted.js';
import { secretRuleIds } from './rules.js';
import { findSecrets, RedactionReport, redactText, redactValue } from './scan.js';

describe('secret rules', () => {
  it('every rule has a planted secret (a test per rule)', () => {
    expect(plantedSecrets().map((p) => p.rule)).toEqual(secretRuleIds);
  });

  for (const planted of plantedSecrets()) {
    it(`${planted.rule}: found, attributed to its rule, and redacted`, () => {
      const found = findSecrets(planted.text);
      expect(found.map((f) => f.rule)).toEqual([planted.rule]);
      const redacted = redactText(planted.text).text;
      expect(redacted.includes(planted.secret)).toBe(false);
      expect(redacted.includes(`[REDACTED:${planted.rule}]`)).toBe(true);
    });
  }

  it('names around a secret stay; only the secret goes', () => {
    expect(redactText('export API_KEY=abcdefgh12345678 && make').text).toBe(
      'export API_KEY=[REDACTED:env-assignment] && make',
    );
    expect(redactText('psql postgres://me:hunter2hunter@localhost/db').text).toBe(
      'psql postgres://me:[REDACTED:url-password]@localhost/db',
    );
  });

  it('ordinary text, placeholders and variable references are left alone', () => {
    const clean = [
      'export API_KEY=$OPENAI_API_KEY',
      'PASSWORD=<your password here>',
      'TOKEN=$' + '{{ secrets.NPM_TOKEN }}',
      'const tokenCount = inputTokens + outputTokens;',
      'see https://example.com/path?x=1 and git@github.com:owner/repo.git',
      'sk-this-is-not-a-key',
      'AKIA is a prefix',
      'the file ghp_short is not a token',
      'password: "changeme"',
      '"accessToken": "sk-ant-oat01-..."',
    ];
    expect(clean.flatMap((t) => findSecrets(t).map((f) => `${t} → ${f.rule}`))).toEqual([]);
  });

  it('redactValue copies only what changes and reports where', () => {
    const [a, b] = plantedSecrets();
    const value = { keep: { n: 1, s: 'plain text, nothing to see' }, list: ['x', a?.text], other: b?.text };
    const report = new RedactionReport();
    const out = redactValue(value, 'call toolu_1 input', report);
    expect(out.keep).toBe(value.keep);
    expect(JSON.stringify(out).includes(a?.secret ?? '?')).toBe(false);
    expect(report.toJSON()).toEqual({
      total: 2,
      byRule: { 'private-key': 1, 'aws-access-key-id': 1 },
      places: { 'call toolu_1 input': 2 },
    });
    expect(report.summary()).toBe('2 secrets redacted (private-key 1, aws-access-key-id 1) in call toolu_1 input');
  });

  it('never throws on odd input', () => {
    const odd = ['\u0000'.repeat(100), '-----BEGIN PRIVATE KEY-----', 'x'.repeat(200_000), '://:@'.repeat(1000)];
    expect(odd.map((t) => redactText(t).text.length > 0)).toEqual([true, true, true, true]);
  });
});
