/**
 * The secret rules: what `agentdash secrets` finds and what exports redact. Each rule names one kind of secret; the
 * set is documented in docs/secrets.md and each rule has a test with a planted secret.
 * @module
 */

export interface SecretRule {
  /** Stable id, shown in findings and in `[REDACTED:<id>]`. */
  readonly id: string;
  /** What it finds, in users' words. */
  readonly title: string;
  /** Global, so it can be run with `matchAll`; `lastIndex` is never relied on. */
  readonly pattern: RegExp;
  /** The capture group that holds the secret itself (the rest, such as a variable name, stays); 0: the whole match. */
  readonly group: number;
  /**
   * A rule that finds a value by the name before it (`PASSWORD=…`, `"token": "…"`, a URL's password, an
   * Authorization header), not by a format of its own: a value that looks like a placeholder is not a secret
   * (`isPlaceholderValue`).
   */
  readonly byName?: true;
  /** Whether a value the pattern found is one (`readsAsValue`: not a variable of code, a port mapping, `id=…,src=…`). */
  readonly takes?: (value: string) => boolean;
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: terminal colour codes are what it removes
const ANSI_SGR = /\u001b\[[0-9;]*m/g;
// Prose in any script (`"store_password": "是否安全存储密码？"`, a translation file) is not a key.
const NOT_ASCII = /[^\x20-\x7e]/;
// Words of one case, each with at most 4 digits after it, or numbers, joined by `-`, `_` or `.`; one word at least.
const ONE_CASE_WORDS =
  /^(?=[^a-zA-Z]*[a-zA-Z])(?:(?:[a-z]+\d{0,4}|\d+)(?:[-_.](?:[a-z]+\d{0,4}|\d+))*|(?:[A-Z]+\d{0,4}|\d+)(?:[-_.](?:[A-Z]+\d{0,4}|\d+))*)$/;

/**
 * Whether a value a `byName` rule found is a placeholder, not a secret (docs/secrets.md): fewer than 5 distinct
 * characters (`aaaaaaaa`, `12121212`), a path or pattern (`/…`), text with characters beyond printable ASCII (prose,
 * a translation), masked (`gho_****…`, as `gh auth status` prints a token), or words in one case joined by `-`, `_` or `.`, each
 * with at most 4 digits after it, numbers between them (`source-token`, `phc_development_key`, `CHANGE_ME`,
 * `SUPERSECRET123`, `admin123`, `minimum-64-bytes`).
 * Real secrets mix cases, digits and symbols: `hunter2hunter`, `Qw8!zKp7…` and `abcdefgh12345678` are kept.
 * @example isPlaceholderValue('source-token') // true
 */
export function isPlaceholderValue(found: string): boolean {
  // Terminal colours around a value (grep --color output) are not part of it.
  const value = found.includes('\u001b') ? found.replace(ANSI_SGR, '') : found;
  if (value.startsWith('/') || NOT_ASCII.test(value) || ONE_CASE_WORDS.test(value)) return true;
  // masked as tools print one (`gh auth status`: `Token: gho_****…`): stars, and no more than a prefix's worth else
  if (value.includes('****') && value.replace(/\*/g, '').length <= 8) return true;
  const distinct = new Set<string>();
  for (const ch of value) {
    distinct.add(ch);
    if (distinct.size >= 5) return false;
  }
  return true;
}

/**
 * Whether a value found after a name in code or a command line reads as a value, not as what code or a command puts
 * there: an identifier of code with no digit (`hashedPassword`, `config.apiKey`, `process.env.API_KEY`), an address
 * or port mapping (`127.0.0.1:3306:3306`, docker's `-p`), an expression that reads one (`process.env.API_KEY;`,
 * `os.environ['KEY']`), or a spec of `key=value` pairs (`id=npmrc,src=…`, docker's
 * `--secret`). A secret of letters alone written unquoted so is missed: the price of not redacting code.
 */
export function readsAsValue(value: string): boolean {
  return !CODE.test(value) && !/^[\d.:]+$/.test(value) && !/=[^=]/.test(value);
}

/**
 * An identifier of code (no digit), alone or read from: called, indexed, or ending a statement (`os.environ[`,
 * `getenv(`), no digit after it (`Summer(2024)!` is a password).
 */
const CODE = /^[A-Za-z_$][A-Za-z_$.]*(?:[[(;,)}\]][^0-9]*)?$/;

/** A dotted name of code, or one called or indexed, no digit in it: `process.env.API_KEY;`, `os.environ[`. */
const READ_BY_CODE = /^[A-Za-z_$]+(?:(?:\.[A-Za-z_$]+)+[;,)}\]]*|(?:\.[A-Za-z_$]+)*[[(][^0-9]*)$/;

/**
 * Whether the value of a `NAME=value` assignment reads as one: not what code reads there (`READ_BY_CODE`) nor a
 * number (`PASSWORD_MIN_LENGTH = 12345678`). A bare word is a value there (`TOKEN=MixedCaseWordsOnly` in a .env file).
 */
export function readsAsAssigned(value: string): boolean {
  return !READ_BY_CODE.test(value) && !/^[\d.:]+$/.test(value);
}

// Secret-ish variable names for `.env`-style assignments and JSON fields. Bounded repeats and a boundary before the
// name keep every rule linear on long strings without one.
const SECRET_WORD =
  '(?:SECRET|TOKEN|PASSWORD|PASSWD|PASSPHRASE|(?<![A-Za-z])PASS(?![A-Za-z])|(?<![A-Za-z])PWD(?![A-Za-z])|API_?KEY|APIKEY|PRIVATE_?KEY|ACCESS_?KEY|CLIENT_?SECRET|CREDENTIALS?|AUTH_?KEY)';
// What after a secret-ish word makes a name no secret's: a tokenizer, a count of tokens, a password policy, a token's
// URL, a minimum length (in the case-insensitive field rule; the env rule's names are upper case).
const NOT_SECRET_AFTER =
  '(?!IZER|IZATION|S\\b|S_|_?(?:POLICY|LENGTH|LEN|COUNT|TYPE|URL|URI|ENDPOINT|FILE|PATH|NAME|ID|LIMIT|TTL|EXPIR[A-Z]{0,10}|HINT|PROMPT|FIELD|LABEL)\\b)';
const ENV_NAME = `[A-Z0-9_]{0,40}${SECRET_WORD}${NOT_SECRET_AFTER}[A-Z0-9_]{0,40}`;
const FIELD_NAME = `[A-Za-z0-9_.-]{0,40}${SECRET_WORD}${NOT_SECRET_AFTER}[A-Za-z0-9_.-]{0,40}`;
// A value worth redacting: 8+ characters, not a variable reference, placeholder or template.
// Values with `...` or `…` are elided examples (`"accessToken": "sk-ant-oat01-..."`).
// (Each lookahead bounded: one that scans to the end of a long text at each name it follows is quadratic.)
const SECRET_VALUE =
  '(?![$<{%])(?!\\*{1,200}\\b)(?!(?:x{1,200}|changeme|your[-_a-z]{0,100}|example[-_a-z]{0,100}|placeholder|redacted)\\b)(?![^"\'\\s]{0,300}(?:\\.\\.\\.|…))';

/**
 * A space or tab inside a quoted value: the nearest quote before it opens the value, right after a secret-ish name
 * and its `=` (any `="` will not do: `echo "=== a ===" && TOKEN=abc def` is no quoted value), and one after it on
 * the line closes it. Bounded both ways, as every lookaround here.
 */
const QUOTED_SPACE = `(?<=${ENV_NAME}[ \\t]{0,10}=[ \\t]{0,10}["'][^"'\\n]{0,200})[ \\t](?=[^"'\\n]{0,200}["'])`;

export const secretRules: readonly SecretRule[] = [
  {
    id: 'private-key',
    title: 'Private key (PEM: RSA, EC, OpenSSH, PGP, PKCS#8)',
    pattern:
      /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?(?:-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----|$)/g,
    group: 0,
  },
  {
    id: 'aws-access-key-id',
    title: 'AWS access key id',
    pattern: /\b(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}\b/g,
    group: 0,
  },
  {
    id: 'aws-secret-access-key',
    title: 'AWS secret access key',
    pattern: /\baws_?secret_?access_?key\b["']?\s*[:=]\s*["']?([A-Za-z0-9/+=]{40})(?![A-Za-z0-9/+=])/gi,
    group: 1,
  },
  { id: 'gcp-api-key', title: 'Google / GCP API key', pattern: /\bAIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])/g, group: 0 },
  { id: 'google-oauth-token', title: 'Google OAuth access token', pattern: /\bya29\.[0-9A-Za-z_-]{20,}/g, group: 0 },
  {
    id: 'azure-storage-key',
    title: 'Azure storage account key (connection string)',
    pattern: /\bAccountKey=([A-Za-z0-9+/]{86}==)/g,
    group: 1,
  },
  {
    id: 'azure-client-secret',
    title: 'Azure AD client secret',
    pattern: /(?<![A-Za-z0-9_~.-])[A-Za-z0-9_~.]{3}\dQ~[A-Za-z0-9_~.-]{31,34}(?![A-Za-z0-9_~.-])/g,
    group: 0,
  },
  {
    id: 'anthropic-api-key',
    title: 'Anthropic API key',
    pattern: /\bsk-ant-(?:api|admin|oat|ort|sid)\d{2}-[A-Za-z0-9_-]{20,}/g,
    group: 0,
  },
  {
    id: 'openai-api-key',
    title: 'OpenAI API key',
    pattern:
      /\bsk-(?!ant-)(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}T3BlbkFJ[A-Za-z0-9_-]{20,}|\bsk-(?:proj|svcacct|admin)-[A-Za-z0-9_-]{40,}/g,
    group: 0,
  },
  {
    id: 'github-token',
    title: 'GitHub token (personal, OAuth, app, refresh, fine-grained)',
    pattern: /\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,})\b/g,
    group: 0,
  },
  { id: 'gitlab-token', title: 'GitLab token', pattern: /\bgl(?:pat|dt|rt|ptt|oas)-[A-Za-z0-9_-]{20,}/g, group: 0 },
  { id: 'slack-token', title: 'Slack token', pattern: /\bxox[abposre]-[A-Za-z0-9-]{10,}/g, group: 0 },
  {
    id: 'slack-webhook',
    title: 'Slack incoming webhook URL',
    pattern: /https:\/\/hooks\.slack\.com\/(?:services|workflows|triggers)\/[A-Za-z0-9/_-]{20,}/g,
    group: 0,
  },
  {
    id: 'stripe-key',
    title: 'Stripe secret or restricted key',
    pattern: /\b(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}\b/g,
    group: 0,
  },
  { id: 'npm-token', title: 'npm access token', pattern: /\bnpm_[A-Za-z0-9]{36}\b/g, group: 0 },
  { id: 'huggingface-token', title: 'Hugging Face token', pattern: /\bhf_[A-Za-z0-9]{34,}\b/g, group: 0 },
  {
    id: 'sendgrid-api-key',
    title: 'SendGrid API key',
    pattern: /\bSG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])/g,
    group: 0,
  },
  {
    id: 'service-token',
    title:
      'Token of another service by its prefix (OpenRouter sk-or-, Groq gsk_, Slack app xapp-, Stripe webhook whsec_, Google OAuth client GOCSPX-, PyPI pypi-, DigitalOcean dop_v1_, Shopify shpat_, Telegram bot)',
    pattern:
      /\b(?:sk-or-v1-[a-f0-9]{64}|gsk_[A-Za-z0-9]{48,}|xapp-\d-[A-Z0-9]{8,}-\d{8,}-[a-f0-9]{32,}|whsec_[A-Za-z0-9+/=]{24,}|GOCSPX-[A-Za-z0-9_-]{28}|pypi-[A-Za-z0-9_-]{50,}|dop_v1_[a-f0-9]{64}|shp(?:at|ss|ca|pa)_[a-fA-F0-9]{32}|\d{8,10}:AA[A-Za-z0-9_-]{33})(?![A-Za-z0-9_-])/g,
    group: 0,
  },
  {
    id: 'jwt',
    title: 'JSON Web Token (bearer tokens of many services)',
    pattern: /\beyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}/g,
    group: 0,
  },
  {
    id: 'authorization-header',
    title: 'Credentials of an Authorization header (Basic, Bearer, Token: curl -H, HTTP requests, JSON headers)',
    // The credential to the next space, quote, comma or semicolon (a token with `!` or `$` in it kept its tail).
    pattern: new RegExp(
      `\\b(?:proxy-)?authorization["']?[ \\t]*[:=][ \\t]*["']?(?:basic|bearer|token|bot|digest)[ \\t]+${SECRET_VALUE}([^\\s"'\`,;(){}\\[\\]\\\\]{8,})`,
      'gi',
    ),
    group: 1,
    byName: true,
  },
  {
    id: 'url-password',
    title: 'Password in a URL (scheme://user:password@host)',
    // No user (`redis://:pw@host`); an `@` in the password, unencoded, up to the last before the host.
    pattern: /\b[a-z][a-z0-9+.-]{1,20}:\/\/[^\s:/?#@"'<>]{0,100}:([^\s/?#"'<>]{3,200})@[^\s"'<>@/]/gi,
    group: 1,
    byName: true,
  },
  {
    id: 'env-assignment',
    title: '.env-style assignment of a secret-ish name (API_KEY=…, export DB_PASSWORD=…)',
    // Upper-case names only (`.env` style), so code such as `tokenCount = inputTokens` is not taken for a secret.
    pattern: new RegExp(
      `(?:^|[\\s;&|("'])(?:export\\s+)?${ENV_NAME}[ \\t]*=[ \\t]*(["']?)${SECRET_VALUE}([^\\s"'\`\\\\](?:[^\\s"'\`\\\\]|${QUOTED_SPACE}){7,})\\1`,
      'gm',
    ),
    group: 2,
    byName: true,
    // The value to the next space or quote, `;`, `&`, `#` and `!` included; between quotes, spaces too (a passphrase,
    // `PASSWORD="correct horse battery staple"`, was missed), never first: `echo "API_KEY=" >> .env; echo "x"` has an
    // empty value, whose closing quote is no opening one (`Xy7kL9mQ;2zR!` in a .env file: its tail
    // was kept); not an expression of code (`API_KEY = process.env.API_KEY;`).
    takes: readsAsAssigned,
  },
  {
    id: 'json-secret-field',
    title: 'Quoted value of a secret-ish field or variable ("password": "…", api_key = \'…\')',
    pattern: new RegExp(
      `(?<![A-Za-z0-9_.-])["']?${FIELD_NAME}["']?[ \\t]*[:=][ \\t]*(["'])${SECRET_VALUE}([^"'\\s]{8,})\\1`,
      'gi',
    ),
    group: 2,
    byName: true,
  },
  {
    id: 'command-line-credential',
    title: 'Credential on a command line (--password X, --token=X, mysql -pX, sshpass -p X, curl -u user:X)',
    // Flags in lower case, as commands take them (`-P` is a port); bounded repeats keep it linear.
    pattern: new RegExp(
      `(?:(?<![\\w-])--(?:password|passwd|token|api-key|apikey|secret|client-secret|auth-token|access-token)(?:=|[ \\t]+)|\\b(?:mysql|mysqldump|mysqladmin|mariadb)\\b[^\\n|;&]{0,200}?[ \\t]-p|\\b(?:sshpass|docker[ \\t]+login\\b[^\\n|;&]{0,200}?)[ \\t]+-p[ \\t]+|\\bcurl\\b[^\\n|;&]{0,200}?[ \\t](?:-u|--user)[ \\t=]*["']?[^\\s:"']{1,100}:)(["']?)${SECRET_VALUE}(?!-)([^\\s"'\`;&|]{8,})\\1`,
      'g',
    ),
    group: 2,
    byName: true,
    takes: readsAsValue,
  },
  {
    id: 'password-assignment',
    title:
      'Password or token after its name and = (password=…, psql "password=…", ?access_token=…, ;Password=…, sig=…)',
    pattern: new RegExp(
      `(?:^|[\\s"'?&;.:])(?:[Pp]assword|passwd|[Pp]wd|PWD|secret|token|access_token|auth_token|refresh_token|id_token|session_token|client_secret|api_key|apikey|_auth|sig|X-Amz-Security-Token|X-Amz-Signature)=${SECRET_VALUE}([^\\s"'\`&;,()<>{}\\[\\]\\\\]{8,})`,
      'gm',
    ),
    group: 1,
    byName: true,
    takes: readsAsValue,
  },
  {
    id: 'api-key-header',
    title: 'Value of an API key header (X-Api-Key: …, X-Auth-Token: …, PRIVATE-TOKEN: …)',
    // hyphenated, as a header is named (a field `apiKey: adminApiKey` of code is no header)
    pattern: new RegExp(
      `\\b(?:x-)?(?:api-key|auth-token|access-token|private-token)["']?[ \\t]*:[ \\t]*["']?${SECRET_VALUE}([^\\s"'\`,;(){}\\[\\]\\\\]{8,})`,
      'gi',
    ),
    group: 1,
    byName: true,
    takes: readsAsValue,
  },
  {
    id: 'yaml-secret-field',
    title: 'Unquoted value of a secret-ish key ending its line (YAML password: …, docker-compose POSTGRES_PASSWORD: …)',
    // Last: a header or a name with a rule of its own is that rule's. Only where the value ends the line (a comment may follow): `token: someVariable,` in code does not.
    pattern: new RegExp(
      `(?:^|[\\s{,])${FIELD_NAME}[ \\t]*:[ \\t]+${SECRET_VALUE}([^\\s"'\`#,{}\\[\\]\\\\]{8,})[ \\t]*(?:#.*)?$`,
      'gim',
    ),
    group: 1,
    byName: true,
    takes: readsAsValue,
  },
];

/** Rule ids, for documentation and tests. */
export const secretRuleIds: readonly string[] = secretRules.map((r) => r.id);
