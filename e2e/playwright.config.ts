import { defineConfig } from "@playwright/test";

const port = Number(process.env.E2E_PORT ?? 8765);

// Debian's Chromium, never a downloaded browser. The flags keep it off the network.
const chromiumArgs = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--disable-quic",
];

export default defineConfig({
  testDir: "./tests",
  timeout: 120_000,
  expect: {
    timeout: 30_000,
    // pixel baselines (screens.spec.ts): a small tolerance for anti-aliasing, no animations
    toHaveScreenshot: { maxDiffPixelRatio: 0.01, animations: "disabled", caret: "hide" },
  },
  // one baseline per screen, whatever the platform: they are made with Debian's Chromium
  snapshotPathTemplate: "{testDir}/../screenshots/{testFileName}/{arg}{ext}",
  retries: 0,
  workers: 1,
  reporter: [["list"]],
  outputDir: "test-results",
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    viewport: { width: 1440, height: 1000 },
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: chromiumArgs,
    },
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
  },
  webServer: {
    command: "../.venv/bin/python stack.py",
    url: `http://127.0.0.1:${port}/api/health`,
    env: { E2E_PORT: String(port), E2E_STATIC_DIR: process.env.E2E_STATIC_DIR ?? "" },
    timeout: 180_000,
    reuseExistingServer: false,
    stdout: "pipe",
    stderr: "pipe",
    gracefulShutdown: { signal: "SIGTERM", timeout: 30_000 },
  },
});
