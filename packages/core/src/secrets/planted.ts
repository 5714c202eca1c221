/**
 * Fake secrets, one per rule, built at run time (no secret-looking literal sits in the repository). Tests plant them
 * in transcripts and check that no export format lets one through. Not part of the public API.
 * @module
 */

const repeatTo = (unit: string, length: number): string =>
  unit.repeat(Math.ceil(length / unit.length)).slice(0, length);

export interface PlantedSecret {
  readonly rule: string;
  /** The text as it would appear in a transcript (a line of a file, a command). */
  readonly text: string;
  /** The part that must never leave the machine. */
  readonly secret: string;
}

/**
 * One planted secret per rule, in the rule set's order. Another `variant` turns every generated part (same
 * characters, another order): two variants' secrets differ, so a test can plant one where it must never be shown and
 * the other where it may be.
 */
export function plantedSecrets(variant = 0): readonly PlantedSecret[] {
  const turn = (unit: string): string => {
    const k = variant % unit.length;
    return unit.slice(k) + unit.slice(0, k);
  };
  const repeat = (unit: string, length: number): string => repeatTo(turn(unit), length);
  const alnum = (length: number, seed = 'Ab3dEf7h9K'): string => repeat(seed, length);
  const pemBody = repeat('MIIEvQIBADANBgkqhkiG9w0BAQEFAASC', 64);
  const pem = `-----BEGIN RSA PRIVATE KEY-----\n${pemBody}\n${pemBody}\n-----END RSA PRIVATE KEY-----`;
  const awsId = `AKIA${repeat('QX7Z', 16)}`;
  const awsSecret = alnum(40, 'wJalrXUtnFEMI7K7MDENGbPxRfiCY');
  const gcp = `AIza${alnum(35, 'SyD3x9Qk_Lm-')}`;
  const ya29 = `ya29.${alnum(60, 'a0AfH6SM')}`;
  const azureKey = `${alnum(86, 'Eby8vdM02xNOcqFlqUwJPLlmEtlCDX')}==`;
  const azureClient = `abc8Q~${alnum(34, 'Zx9Yw8Vu7T')}`;
  const anthropic = `sk-ant-api03-${alnum(93, 'Qx7_Lm-Zz9')}AA`;
  const openai = `sk-proj-${alnum(48, 'Tb4Kq8Rw2Z')}T3BlbkFJ${alnum(24, 'Pq9Lm2Xs')}`;
  const cliValue = alnum(20, 'Hn4Tq8Zr2W');
  const pwValue = alnum(18, 'Kd7Wp3Xq9M');
  const headerValue = alnum(32, '9f8e7d6c5b4a');
  const github = `ghp_${alnum(36, 'R2d2C3poBB8')}`;
  const gitlab = `glpat-${alnum(20, 'Xk7Pq2Zm9W')}`;
  const slack = `xoxb-${repeat('1234567890', 12)}-${alnum(24)}`;
  const slackHook = `https://hooks.slack.com/services/T${alnum(10, 'A1B2C3')}/B${alnum(10, 'D4E5F6')}/${alnum(24)}`;
  const stripe = `sk_live_${alnum(24, 'Zq8Wm4Kp2R')}`;
  const npm = `npm_${alnum(36, 'Gh7Jk2Lm9N')}`;
  const hf = `hf_${alnum(34, 'PzQr8Ts3Uv')}`;
  const sendgrid = `SG.${alnum(22, 'Fq3Lx9Wd_k')}.${alnum(43, 'Tz8-Nb2Vc5Qr')}`;
  const basic = alnum(28, 'YWxpY2U6U3VwM3JTZWNyM3Q');
  const jwt = `eyJhbGciOiJIUzI1NiJ9.eyJ${alnum(40, 'zdWIiOiIx')}.${alnum(43, 'SflKxwRJ-_')}`;
  const urlPassword = turn('Sup3r-Secr3t-Pw');
  const envValue = alnum(24, 'Vq7Xz2Lp9K');
  const jsonValue = alnum(20, 'Hn4Wq8Zs2M');
  const groq = `gsk_${alnum(52, 'Wd4Rt8Yp2Q')}`;
  const yamlValue = alnum(16, 'Yl8Mq3Zp7K');
  return [
    { rule: 'private-key', text: `key file:\n${pem}\n`, secret: pemBody },
    { rule: 'aws-access-key-id', text: `aws_access_key_id = ${awsId}`, secret: awsId },
    { rule: 'aws-secret-access-key', text: `aws_secret_access_key = ${awsSecret}`, secret: awsSecret },
    { rule: 'gcp-api-key', text: `const key = "${gcp}";`, secret: gcp },
    { rule: 'google-oauth-token', text: `Authorization: Bearer ${ya29}`, secret: ya29 },
    {
      rule: 'azure-storage-key',
      text: `DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=${azureKey};EndpointSuffix=core.windows.net`,
      secret: azureKey,
    },
    { rule: 'azure-client-secret', text: `client secret is ${azureClient} (expires 2027)`, secret: azureClient },
    { rule: 'anthropic-api-key', text: `curl -H "x-api-key: ${anthropic}"`, secret: anthropic },
    { rule: 'openai-api-key', text: `client = OpenAI(api_key="${openai}")`, secret: openai },
    { rule: 'github-token', text: `git clone https://${github}@github.invalid/x.git`, secret: github },
    { rule: 'gitlab-token', text: `PRIVATE-TOKEN: ${gitlab}`, secret: gitlab },
    { rule: 'slack-token', text: `slack token ${slack}`, secret: slack },
    { rule: 'slack-webhook', text: `curl -X POST ${slackHook}`, secret: slackHook },
    { rule: 'stripe-key', text: `stripe.api_key = '${stripe}'`, secret: stripe },
    { rule: 'npm-token', text: `//registry.npmjs.org/:_authToken=${npm}`, secret: npm },
    { rule: 'huggingface-token', text: `huggingface-cli login --token ${hf}`, secret: hf },
    { rule: 'sendgrid-api-key', text: `SENDGRID_KEY: ${sendgrid}`, secret: sendgrid },
    { rule: 'service-token', text: `GROQ_KEY: ${groq}`, secret: groq },
    { rule: 'jwt', text: `cookie: session=${jwt}`, secret: jwt },
    {
      rule: 'authorization-header',
      text: `curl -H "Authorization: Basic ${basic}" https://api.internal/v1`,
      secret: basic,
    },
    {
      rule: 'url-password',
      text: `DATABASE_URL=postgres://admin:${urlPassword}@db.internal:5432/app`,
      secret: urlPassword,
    },
    { rule: 'env-assignment', text: `# .env\nexport MY_SERVICE_SECRET=${envValue}\n`, secret: envValue },
    { rule: 'json-secret-field', text: `{"user": "bob", "password": "${jsonValue}"}`, secret: jsonValue },
    { rule: 'command-line-credential', text: `mysql -u root -p${cliValue} app < dump.sql`, secret: cliValue },
    { rule: 'password-assignment', text: `psql "host=db.internal user=app password=${pwValue}"`, secret: pwValue },
    {
      rule: 'api-key-header',
      text: `curl -H "X-Api-Key: ${headerValue}" https://api.internal/v1`,
      secret: headerValue,
    },
    {
      rule: 'yaml-secret-field',
      text: `services:\n  db:\n    environment:\n      POSTGRES_PASSWORD: ${yamlValue}\n`,
      secret: yamlValue,
    },
  ];
}
