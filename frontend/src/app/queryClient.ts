import { QueryCache, QueryClient } from "@tanstack/react-query";
import { ApiError } from "../api/errors";

export const ME_KEY = ["me"] as const;

/**
 * A 401 is retried once, shortly: a request sent right after sign-in can reach the server
 * before the new session is visible to it. Other 4xx answers are final.
 */
export function shouldRetry(failureCount: number, error: unknown): boolean {
  if (error instanceof ApiError && error.status === 401) return failureCount < 1;
  if (error instanceof ApiError && error.status >= 400 && error.status < 500) return false;
  return failureCount < 2;
}

export function retryDelay(attempt: number, error: unknown): number {
  if (error instanceof ApiError && error.status === 401) return 300;
  return Math.min(1000 * 2 ** attempt, 8000);
}

/** One client per app; a 401 from any query means the session ended: drop the user. */
export function createQueryClient(): QueryClient {
  const client: QueryClient = new QueryClient({
    queryCache: new QueryCache({
      onError: (error) => {
        if (error instanceof ApiError && error.status === 401) client.setQueryData(ME_KEY, null);
      },
    }),
    defaultOptions: {
      queries: { retry: shouldRetry, retryDelay, refetchOnWindowFocus: false, staleTime: 5_000 },
      mutations: { retry: false },
    },
  });
  return client;
}
