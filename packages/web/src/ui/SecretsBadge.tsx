/** A session whose transcripts hold secrets (counted at index time; exports redact them), as a small badge. */
export function SecretsBadge({ count }: { readonly count: number }) {
  if (!(count > 0)) return null;
  const title = `${count} secret${count === 1 ? '' : 's'} found in this session's transcripts (keys, tokens, passwords); exports redact them`;
  return (
    <span className="badge error" data-testid="secrets-badge" data-count={count} title={title}>
      secrets
    </span>
  );
}
