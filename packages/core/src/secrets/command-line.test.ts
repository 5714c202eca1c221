/**
 * Credentials written as commands and connection strings write them: a read-only review of what leaves a laptop
 * found each of these sent to a team server at the `metadata` tier (a call's one-line summary) and at `full`, since no
 * rule found them (only `NAME=` in capitals, quoted fields, URLs and Authorization headers were).
 */
import { describe, expect, it } from 'vitest';
import { findSecrets, redactText } from './scan.js';

const SECRET = 'Hunter2SecretZz9';

describe('credentials on command lines and in connection strings', () => {
  it.each([
    ['echo to-stderr password=Hunter2SecretZz9', 'password-assignment'],
    ['psql "host=db user=app password=Hunter2SecretZz9"', 'password-assignment'],
    ['curl "https://api.invalid/v1/items?access_token=Hunter2SecretZz9&page=2"', 'password-assignment'],
    ['mytool --password=Hunter2SecretZz9 --verbose', 'command-line-credential'],
    ['mytool --token Hunter2SecretZz9', 'command-line-credential'],
    ["deploy --api-key 'Hunter2SecretZz9'", 'command-line-credential'],
    ['mysql -h db -u root -pHunter2SecretZz9 app < dump.sql', 'command-line-credential'],
    ['mysqldump -uroot -pHunter2SecretZz9 app', 'command-line-credential'],
    ['docker login -u me -p Hunter2SecretZz9 registry.invalid', 'command-line-credential'],
    ['sshpass -p Hunter2SecretZz9 ssh me@host', 'command-line-credential'],
    ['curl -u admin:Hunter2SecretZz9 https://api.invalid', 'command-line-credential'],
    ['curl --user "admin:Hunter2SecretZz9" https://api.invalid', 'command-line-credential'],
    ['curl -H "X-Api-Key: 0123456789abcdef0123456789abcdef" https://api.invalid', 'api-key-header'],
    ['X-Auth-Token: Hunter2SecretZz9', 'api-key-header'],
  ])('%s', (text, rule) => {
    expect(findSecrets(text).map((f) => [f.rule, text.slice(f.start, f.end)])).toEqual([
      [rule, text.includes(SECRET) ? SECRET : '0123456789abcdef0123456789abcdef'],
    ]);
    expect(redactText(text).text).not.toContain(SECRET);
  });

  it.each([
    'docker run -p 8080:80 nginx',
    'mysql -h db -P 33060 -p app',
    'ssh -p 2222 me@host',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell's variable reference, as written
    'mytool --token $TOKEN --password "${PASSWORD}"',
    'git push -u origin feature/password-reset',
    'login(password=form.password.data, token=tokenizer.encode)',
    'password=password123 token=changeme1',
    'mytool --password --verbose',
    'curl -u "$USER:$PASS" https://api.invalid',
    // code, not a header (wild agentcmd-1's Codex rollout)
    'const anthropicClient = new AnthropicClient({ apiKey: adminApiKey });',
  ])('leaves alone %s', (text) => {
    expect(findSecrets(text)).toEqual([]);
  });
});
