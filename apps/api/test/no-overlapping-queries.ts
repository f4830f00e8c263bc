/**
 * Runs before every API test file. A transaction has one connection: node-postgres queues a statement sent while
 * others are running or waiting on it, warns once (a DeprecationWarning, from the third statement in flight) and,
 * from its next major version, refuses it. Such statements come from reads started together (Promise.all) inside one
 * transaction; they never ran at once anyway. The warning fails the test run here, with the stack of the statement
 * sent too early (long enough to reach the app's code through Drizzle's). PGlite queues them silently, so only the
 * runs on PostgreSQL can see it.
 */
Error.stackTraceLimit = 40;
process.on("warning", (warning) => {
  if (warning.name === "DeprecationWarning" && warning.message.includes("already executing a query")) {
    throw new Error(`A statement was sent while others ran on the same connection:\n${warning.stack ?? ""}`);
  }
});
