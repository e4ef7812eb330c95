/** Only same-site paths are followed after login. */
export function safeNext(next: string | null): string {
  if (next === null || !next.startsWith("/") || next.startsWith("//") || next.startsWith("/login")) {
    return "/datasets";
  }
  return next;
}
