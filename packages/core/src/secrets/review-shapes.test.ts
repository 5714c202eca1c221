/**
 * The shapes a review of secrets found missed, cut short or mistaken (2026-12-07): each whole value redacted, and
 * code that reads a secret left as it is. Values are built at run time (no secret-looking literal in the repository).
 */
import { describe, expect, it } from 'vitest';
import { findSecrets, redactText } from './scan.js';

const mix = (seed: string, length: number) => seed.repeat(Math.ceil(length / seed.length)).slice(0, length);
const hex = (length: number) => mix('3f9a0c7e1b5d', length);

describe('a secret found by its name keeps nothing of its value', () => {
  it.each([
    ['DB_PASSWORD=Xy7kL9mQ;2zR!', 'DB_PASSWORD=[REDACTED:env-assignment]'],
    ['ADMIN_PASSWORD=Tr0ub4dor&3', 'ADMIN_PASSWORD=[REDACTED:env-assignment]'],
    ['DB_PASSWORD=Xy7kL9#mQ2zR', 'DB_PASSWORD=[REDACTED:env-assignment]'],
    ['X-Api-Key: Ab12Cd34Ef56!Gh78', 'X-Api-Key: [REDACTED:api-key-header]'],
    ['Authorization: Bearer Ab12Cd34!Gh78$xyz', 'Authorization: Bearer [REDACTED:authorization-header]'],
    ['mysql://root:P@ssw0rd123@db.internal/app', 'mysql://root:[REDACTED:url-password]@db.internal/app'],
    // a review of those rules: a value that starts as a name of code but holds a digit is a value
    ['export DB_PASSWORD=Summer(2024)!', 'export DB_PASSWORD=[REDACTED:env-assignment]'],
    ['DB_PASSWORD=Welcome[2024]x', 'DB_PASSWORD=[REDACTED:env-assignment]'],
    ['mysql -u root -pSummer(2024)! app', 'mysql -u root -p[REDACTED:command-line-credential] app'],
    // stars in it, but more of it shown than a prefix
    ['password=Hunter2Xy9****', 'password=[REDACTED:password-assignment]'],
    // a passphrase between quotes, spaces and all (its first word alone was too short, and nothing was found)
    ['PASSWORD="correct horse battery staple"', 'PASSWORD="[REDACTED:env-assignment]"'],
    ["export DB_PASSWORD='Tr0ub4dor and 3 more' && make", "export DB_PASSWORD='[REDACTED:env-assignment]' && make"],
    // unquoted, the value still ends at its first space
    ['DB_PASSWORD=Xy7kL9mQ2z run "a b"', 'DB_PASSWORD=[REDACTED:env-assignment] run "a b"'],
    ['A="x" DB_PASSWORD=Xy7kL9mQ2z run it"', 'A="x" DB_PASSWORD=[REDACTED:env-assignment] run it"'],
    // a `="` before it that opens no value of its (a wild session's command)
    [
      'echo "=== a ===" && SRC_TOKEN=Sup3rS3cr3tX /tmp/t --help | grep -i token; echo "b"',
      'echo "=== a ===" && SRC_TOKEN=[REDACTED:env-assignment] /tmp/t --help | grep -i token; echo "b"',
    ],
  ])('%s', (text, redacted) => {
    expect(redactText(text).text).toBe(redacted);
  });
});

describe('shapes found now', () => {
  it.each([
    ['POSTGRES_PASSWORD: YAMLpw1234Qz', 'yaml-secret-field'],
    ['  password: hunter2hunter   # the admin one', 'yaml-secret-field'],
    ['spring.datasource.password=Sprng7Pw9xQ', 'password-assignment'],
    ['DB_PASS=Xy7kL9mQ2zRw', 'env-assignment'],
    ['MYSQL_PWD=Xy7kL9mQ2zRw mysql app', 'env-assignment'],
    ['Server=db;Database=app;User Id=sa;Password=Hunter2xx9Q;', 'password-assignment'],
    ['"Env": ["POSTGRES_PASSWORD=Dk8Pw3Zq9Lm", "PATH=/usr/bin"]', 'env-assignment'],
    ['redis://:Rd7Pw3Zq9Lm@cache.internal:6379', 'url-password'],
    ['grant_type=refresh_token&client_secret=Cs8Kd2Lp9Qz4', 'password-assignment'],
    ['curl -d refresh_token=Rf8Kd2Lp9Qz4Xw', 'password-assignment'],
    ['https://acct.blob.core.windows.net/c/f?sv=2024&sig=Sg8Kd2Lp9Qz4Xw%3D', 'password-assignment'],
    ['?X-Amz-Security-Token=Fw8Kd2Lp9Qz4XwPq&X-Amz-Date=1', 'password-assignment'],
    ['PRIVATE-TOKEN: Pt8Kd2Lp9Qz7Wx', 'api-key-header'],
    ['//registry.internal/:_auth=YWxpY2U6czNjcjN0UGFzcw==', 'password-assignment'],
    [`OPENROUTER=sk-or-v1-${hex(64)}`, 'service-token'],
    [`key ${'gsk'}_${mix('Wd4Rt8Yp2Q', 52)}`, 'service-token'],
    [`${'whsec'}_${mix('Wh7Kd2Lp9Q', 32)}`, 'service-token'],
    [`client_secret: ${'GOCSPX'}-${mix('Gc8Kd2Lp9Q', 28)}`, 'service-token'],
    [`${'pypi'}-${mix('AgEIcHlwaS5vcmc', 60)}`, 'service-token'],
    [`${'dop_v1'}_${hex(64)}`, 'service-token'],
    [`${'shpat'}_${hex(32)}`, 'service-token'],
    [`bot 123456789:AA${mix('Fq3Lx9Wd_k', 33)}`, 'service-token'],
    ['{"pass": "Hunter2Xy9Zq"}', 'json-secret-field'],
    ['      DB_PWD: Hunter2Xy9Zq', 'yaml-secret-field'],
  ])('%s', (text, rule) => {
    expect(findSecrets(text).map((f) => f.rule)).toEqual([rule]);
  });
});

describe('code that reads a secret, and names that hold none, are left alone', () => {
  it.each([
    // an empty value in quotes: its closing quote opens no value (a review of the quoted-passphrase rule)
    'echo "API_KEY=" >> .env; echo "done"',
    'grep -rn "API_TOKEN=" src | head; echo "x"',
    'out.write("API_KEY=" + apiKey + "\\n")',
    "line = 'DB_PASSWORD=' + os.environ['X'] + '\\n'",
    'const API_KEY = process.env.API_KEY;',
    "SECRET_KEY = os.environ['SECRET_KEY']",
    'PASSWORD_MIN_LENGTH = 12345678',
    '"tokenizer": "cl100k_base"',
    '"passwordPolicy": "MinLength8"',
    'TOKEN_URL=https://auth.example.com/oauth/token',
    "headers: { 'X-Api-Key': config.apiKey },",
    'token: someVariableName,',
    // masked as `gh auth status` prints it (two wild Codex sessions)
    '  - Token: gho_************************************',
    // PASS and PWD inside a longer word are none of them
    'COMPASS=Northwest123abc',
    'BYPASS=TrueFalse12345',
    '  Bypass: abcDEFghi123',
    'OLDPWD=~/work/project',
    // a placeholder before a shell's `;`
    'PASSWORD=password; make',
  ])('%s', (text) => {
    expect(findSecrets(text)).toEqual([]);
  });
});
