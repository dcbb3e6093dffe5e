/**
 * The one base of every error a person or an assistant reads. Its message is
 * the plain sentence they read, never a stack; it carries what that sentence
 * means at each edge, so that no edge keeps a list of error classes:
 *
 * - `exitCode`: what a command of the CLI exits with when it ends with this
 *   error (1; `UsageError` in src/cli/args.ts says 2);
 * - `toolSentence`: what an assistant reads when a tool call, a resource read
 *   or a prompt ends with it (the message, word for word).
 *
 * It lives on the lowest floor because the lowest floor already makes such
 * sentences (`FrontmatterLayoutError`); src/vault/errors.ts exports it too,
 * with the model's own errors. Errors that are not meant to be read (a damaged
 * cache, git output that does not parse) stay plain `Error`s, caught where they
 * are understood; one that escapes ends the CLI with `failureSentence`
 * (src/cli/failure.ts) and a tool call with "could not finish"
 * (src/server/errors.ts).
 */
export class DexiError extends Error {
  /** The exit code of a CLI command that ends with this error. */
  readonly exitCode: number = 1;

  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = new.target.name;
  }

  /** What an assistant reads when a request ends with this error. */
  get toolSentence(): string {
    return this.message;
  }
}
