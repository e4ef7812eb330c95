import react from "@vitejs/plugin-react";
import { defineConfig } from "vitest/config";

// The API serves the built UI at "/" (SPA fallback) and its assets under /assets.
export default defineConfig({
  plugins: [react()],
  base: "/",
  build: {
    outDir: "dist",
    assetsDir: "assets",
    sourcemap: true,
    manifest: true,
    rollupOptions: {
      output: {
        // Libraries change less often than the app: separate chunks stay cached across releases.
        // The chart library is left to the pages that draw charts, so the first page loads
        // without it (scripts/bundle-budget.mjs checks the first page's size).
        manualChunks(id: string) {
          if (/node_modules\/(react|react-dom|react-router|scheduler)\//.test(id)) return "react";
          if (/node_modules\/(@tanstack\/[^/]+|openapi-fetch)\//.test(id)) return "query";
          return undefined;
        },
      },
    },
  },
  server: {
    host: "127.0.0.1",
    port: 5173,
    proxy: {
      "/api": { target: "http://127.0.0.1:8000", changeOrigin: false },
    },
  },
  test: {
    environment: "jsdom",
    globals: true,
    setupFiles: ["./vitest.setup.ts"],
    css: { include: [/tokens\.css/] },
    include: ["src/**/*.test.{ts,tsx}"],
    restoreMocks: true,
    // a hang guard, not a speed check: typing into large forms takes seconds on a busy machine
    testTimeout: 20_000,
  },
});
