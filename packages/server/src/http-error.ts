/** An error the API answers with its own status and message (anything else is a 500 "internal error"). */
export class HttpError extends Error {
  constructor(
    readonly status: 400 | 404 | 500 | 503,
    message: string,
  ) {
    super(message);
  }
}
