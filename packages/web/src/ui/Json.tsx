export function Json({ value, testId }: { value: unknown; testId?: string }) {
  let text: string;
  try {
    text = typeof value === 'string' ? value : JSON.stringify(value, null, 2);
  } catch {
    text = String(value);
  }
  return (
    <pre className="json" data-testid={testId}>
      {text}
    </pre>
  );
}
