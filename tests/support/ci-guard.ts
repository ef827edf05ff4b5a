// Runs before every test file. In CI the PostgreSQL tests must run, never be skipped.
if (process.env.CI && !process.env.TEST_DATABASE_URL) {
  throw new Error("TEST_DATABASE_URL is required in CI: the PostgreSQL tests must run there.");
}
