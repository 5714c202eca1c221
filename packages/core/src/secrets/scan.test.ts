import { describe, expect, it } from 'vitest';
import { plantedSecrets } from './planted.js';
import { isPlaceholderValue, secretRuleIds, secretRules } from './rules.js';
import { findSecrets, RedactionReport, redactText, redactValue, secretRulesOf } from './scan.js';

describe('secret rules', () => {
  it('every rule has a planted secret (a test per rule), in two variants that differ', () => {
    expect(plantedSecrets().map((p) => p.rule)).toEqual(secretRuleIds);
    const other = plantedSecrets(1);
    expect(other.map((p) => findSecrets(p.text).map((f) => f.rule))).toEqual(secretRuleIds.map((id) => [id]));
    const first = plantedSecrets();
    expect(
      other.filter((p, i) => first[i]?.text.includes(p.secret) || p.text.includes(first[i]?.secret ?? '?')),
    ).toEqual([]);
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

  // The quick test before the rules (`mayHold`) must pass every secret a rule finds: here without the words around
  // the planted ones (`token`, `api_key`, …), which pass it on their own, and in other cases where a rule ignores case.
  it('a secret with nothing around it that names one is still found', () => {
    const bare = plantedSecrets().filter(
      (p) => secretRules.find((r) => r.id === p.rule)?.group === 0 && p.rule !== 'private-key',
    );
    expect(bare.length).toBeGreaterThan(10);
    for (const planted of bare) {
      expect(
        findSecrets(`value: ${planted.secret} .`).map((f) => f.rule),
        planted.rule,
      ).toEqual([planted.rule]);
    }
  });

  it('rules that ignore case find their secrets written in capitals', () => {
    const anyCase = plantedSecrets().filter((p) =>
      secretRules.find((r) => r.id === p.rule)?.pattern.flags.includes('i'),
    );
    expect(anyCase.map((p) => p.rule)).toEqual([
      'aws-secret-access-key',
      'authorization-header',
      'url-password',
      'json-secret-field',
      'api-key-header',
      'yaml-secret-field',
    ]);
    for (const planted of anyCase) {
      expect(
        findSecrets(planted.text.toUpperCase()).map((f) => f.rule),
        planted.rule,
      ).toEqual([planted.rule]);
    }
  });

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

  it('Authorization headers: Basic and Bearer credentials go, the scheme and a variable stay', () => {
    const token = 'q8Zr2Lm5Tx9Wv3Kp7Nb4';
    expect(redactText(`curl -H 'Authorization: Bearer ${token}' https://x.invalid`).text).toBe(
      "curl -H 'Authorization: Bearer [REDACTED:authorization-header]' https://x.invalid",
    );
    expect(redactText(`{"headers": {"Authorization": "Token ${token}"}}`).text).toBe(
      '{"headers": {"Authorization": "Token [REDACTED:authorization-header]"}}',
    );
    expect(findSecrets('curl -H "Authorization: Bearer $API_TOKEN" https://x.invalid')).toEqual([]);
    // A JWT or a Google token in the header keeps its own, more specific rule.
    const jwt = plantedSecrets().find((p) => p.rule === 'jwt')?.secret ?? '?';
    expect(findSecrets(`Authorization: Bearer ${jwt}`).map((f) => f.rule)).toEqual(['jwt']);
  });

  // Values found by their name (not their format) that read as words: the false findings of the wild corpus
  // (Go test fixtures, .env.example files, documentation), none a secret.
  it('placeholder values of name-found rules are not secrets; random-looking ones are', () => {
    const placeholders = [
      'client := gitsync.EndpointAuth{Token: "source-token"}',
      'auth := &githttp.TokenAuth{Token: "my-token"}',
      '[]byte(`{"access_token":"new-token","refresh_token":"new-refresh"}`)',
      'Settings(SLACK_BOT_TOKEN="xoxb-token", SLACK_APP_TOKEN="xapp-token")',
      'GITSYNC_SOURCE_TOKEN=SUPERSECRET123 GITSYNC_TARGET_TOKEN=TARGETSECRET999 make',
      '{"AccessToken": "CHANGE_ME", "SecretKey": "CHANGE_ME_USE_ENV"}',
      '\tPostHogAPIKey = "phc_development_key"',
      'secret_key_base: "dev-only-secret-not-for-production-use-minimum-64-bytes-long-enough-placeholder"',
      'DB_USER=admin\nDB_PASSWORD=admin123',
      'DATABASE_URL="postgres://USER:PASSWORD@localhost/db" or postgres://user:pass@host',
      'const TOKEN_PATTERN = /\\{\\{\\s*([a-zA-Z0-9_]+)\\s*\\}\\}/g',
      'API_KEY=aaaaaaaaaaaa PASSWORD=12121212',
      'Authorization: Bearer YOUR_TOKEN',
      '"cli.store_password": "是否安全存储密码？", "warning.no_password": "未找到存储的密码"',
      '"SecretKey": "\u001b[7mCHANGE_ME_USE_ENV\u001b[0m"',
    ];
    expect(placeholders.flatMap((t) => findSecrets(t).map((f) => `${t} → ${f.rule}`))).toEqual([]);
    const secrets = [
      '"SecretKey": "Qw8!zKp7$2nLx@4vRj6#tYb9^sGm3"',
      "user: 'tauri', password: 'poiwe3h4r5ip3yrhtew9ty'",
      'export API_KEY=abcdefgh12345678',
      'psql postgres://me:hunter2hunter@localhost/db',
      'TOKEN=MixedCaseWordsOnly',
    ];
    expect(secrets.map((t) => findSecrets(t).length)).toEqual([1, 1, 1, 1, 1]);
    expect(['source-token', 'CHANGE_ME', 'admin123', '/run/secrets/x'].map(isPlaceholderValue)).toEqual([
      true,
      true,
      true,
      true,
    ]);
    expect(['hunter2hunter', 'Sup3r-Secr3t-Pw'].map(isPlaceholderValue)).toEqual([false, false]);
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

  it("a parsed object's secret-ish field is redacted as the same field written as text", () => {
    // As a tool's input or an MCP server's arguments hold them once the line is parsed: the name is a key.
    const value = {
      input: { user: 'bob', password: 'Qw8zKp7x9Lm2', token: 'source-token', note: 'password reset at 9' },
      headers: { Authorization: 'Bearer abcdefgh12345678', 'X-Trace': 'Bearer abcdefgh12345678' },
      env: { DB_PASSWORD: '$DB_PASSWORD', API_KEY: 'sk-ant-api03-000000000000000000000000000000000000000000' },
    };
    const report = new RedactionReport();
    const out = redactValue(value, 'call', report);
    expect(out.input).toEqual({
      user: 'bob',
      password: '[REDACTED:json-secret-field]',
      token: 'source-token',
      note: 'password reset at 9',
    });
    // The name makes the header: the same text under another key is not one.
    expect(out.headers).toEqual({
      Authorization: 'Bearer [REDACTED:authorization-header]',
      'X-Trace': 'Bearer abcdefgh12345678',
    });
    expect(out.env.DB_PASSWORD).toBe('$DB_PASSWORD');
    expect(out.env.API_KEY).toBe('[REDACTED:anthropic-api-key]');
    expect(report.toJSON().byRule).toEqual({
      'json-secret-field': 1,
      'authorization-header': 1,
      'anthropic-api-key': 1,
    });
    // As text, the rules find the same two named values.
    const rules = findSecrets(JSON.stringify(value, null, 1)).map((f) => f.rule);
    expect(rules).toEqual(['json-secret-field', 'authorization-header', 'anthropic-api-key']);
  });

  it('JSON held in a string is read as JSON, re-serialized only when a secret goes, and never too deep', () => {
    const held = JSON.stringify({ output: 'export DB_PASSWORD="Hx7pQ2mZ9wLk"\n', metadata: { exit_code: 0 } });
    expect(findSecrets(held)).toEqual([]);
    const out = redactValue({ content: held }, 'result', new RedactionReport());
    expect(JSON.parse(out.content)).toEqual({
      output: 'export DB_PASSWORD="[REDACTED:env-assignment]"\n',
      metadata: { exit_code: 0 },
    });
    expect(secretRulesOf({ content: held, input: { password: 'Qw8zKp7x9Lm2' } })).toEqual([
      'env-assignment',
      'json-secret-field',
    ]);
    const plain = '{ "token_count": 12,  "note": "nothing secret here" }';
    expect(redactValue({ content: plain }, 'result', new RedactionReport()).content).toBe(plain);
    // Nested past the depth a parsed line may have, or inside JSON itself held in a string: read as text.
    const deep = `${'['.repeat(5000)}"token: ghp_0123456789abcdefghijABCDEFGHIJ012345"${']'.repeat(5000)}`;
    expect(secretRulesOf(deep)).toEqual(['github-token']);
    expect(secretRulesOf(JSON.stringify({ inner: held }))).toEqual([]);
  });

  it('counts a secret met in several places once, and says how many times it was redacted', () => {
    const secret = 'ghp_0123456789abcdefghijABCDEFGHIJ012345';
    const text = { content: `token ${secret}`, toolUseResult: { stdout: `token ${secret}` } };
    const first = new RedactionReport();
    redactValue(text, 'a.jsonl:55', first);
    const other = new RedactionReport();
    redactValue({ again: secret }, 'a.jsonl:60', other);
    first.merge(other);
    expect(first.total).toBe(3);
    expect(first.distinct).toBe(1);
    // Before: "3 secrets redacted", where the secrets command counts one.
    expect(first.summary()).toBe('1 secret, redacted 3 times (github-token 3), in a.jsonl:55; a.jsonl:60');
  });

  it('redacting twice changes nothing (a marker is never a secret, nor part of one)', () => {
    for (const p of [...plantedSecrets(), ...plantedSecrets(1)]) {
      const once = redactText(p.text).text;
      expect(findSecrets(once), p.rule).toEqual([]);
      expect(redactText(once).text, p.rule).toBe(once);
    }
    expect(findSecrets('git clone https://[REDACTED:github-token]@github.invalid/x.git')).toEqual([]);
  });

  it('never throws on odd input', () => {
    const odd = ['\u0000'.repeat(100), '-----BEGIN PRIVATE KEY-----', 'x'.repeat(200_000), '://:@'.repeat(1000)];
    expect(odd.map((t) => redactText(t).text.length > 0)).toEqual([true, true, true, true]);
  });
});
