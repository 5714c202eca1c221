/**
 * Credentials written as commands and connection strings write them: a read-only review of what leaves a laptop
 * found each of these sent to a team server at the `metadata` tier (a call's one-line summary) and at `full`, since no
 * rule found them (only `NAME=` in capitals, quoted fields, URLs and Authorization headers were).
 */
import { describe, expect, it } from 'vitest';
import { secretRules } from './rules.js';
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

describe('what code and commands put after such a name', () => {
  it.each([
    'docker buildx build --secret id=npmrc,src=$HOME/.npmrc .',
    'docker buildx build --secret id=aws,src=/root/.aws/credentials .',
    'create_user(username, password=hashedPassword)',
    'client.get(url, token=accessToken)',
    'login(name, password=self.userPassword)',
    "fetch(url, { headers: {'X-Api-Key': config.apiKey} })",
    "headers = {'x-api-key': process.env.API_KEY}",
    'docker run --name mysql -p127.0.0.1:3306:3306 mysql:8',
  ])('leaves alone %s', (text) => {
    expect(findSecrets(text)).toEqual([]);
  });
});

/** The lookaheads of a pattern's source: each `(?=…)`, `(?!…)`, `(?<=…)`, `(?<!…)` with what it holds. */
function lookaheadsOf(source: string): string[] {
  const found: string[] = [];
  for (let i = 0; i < source.length; i++) {
    if (source[i] === '\\') {
      i++;
      continue;
    }
    if (!/^\(\?<?[=!]/.test(source.slice(i, i + 4))) continue;
    let depth = 0;
    let inClass = false;
    for (let j = i; j < source.length; j++) {
      const c = source[j];
      if (c === '\\') j++;
      else if (inClass) inClass = c !== ']';
      else if (c === '[') inClass = true;
      else if (c === '(') depth++;
      else if (c === ')' && --depth === 0) {
        found.push(source.slice(i, j + 1));
        break;
      }
    }
  }
  return found;
}

/** Whether a piece of pattern repeats without a bound (`*` or `+` outside a class, not escaped). */
function repeatsUnbounded(piece: string): boolean {
  let inClass = false;
  for (let i = 0; i < piece.length; i++) {
    const c = piece[i];
    if (c === '\\') i++;
    else if (inClass) inClass = c !== ']';
    else if (c === '[') inClass = true;
    else if (c === '*' || c === '+') return true;
  }
  return false;
}

it('no rule looks ahead without a bound: at each name it would scan to the end of a long text', () => {
  // `(?![^"'\s]*(?:\.\.\.|…))` took a minute on a 1 MB text of `&token=abc`: it scanned to the end at every name
  expect(repeatsUnbounded('(?![^"\'\\s]*(?:\\.\\.\\.|…))')).toBe(true);
  const unbounded = secretRules.flatMap((rule) =>
    lookaheadsOf(rule.pattern.source)
      .filter(repeatsUnbounded)
      .map((piece) => `${rule.id}: ${piece}`),
  );
  expect(unbounded).toEqual([]);
});
