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
    rollupOptions: {
      output: {
        // Libraries change less often than the app: separate chunks stay cached across releases.
        manualChunks: {
          react: ["react", "react-dom", "react-router"],
          query: ["@tanstack/react-query", "openapi-fetch"],
          charts: ["recharts"],
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
  },
});
