// Runs one SQL statement with DuckDB (@duckdb/node-api) and prints its rows
// as a JSON array of objects on stdout.
//
//   node query.mjs NODE_MODULES_DIR < query.sql
//
// BIGINT and DECIMAL values are printed as JSON numbers when they are exact
// in a double, else as strings; lists are arrays and structs are objects.
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { readFileSync } from 'node:fs';

const modules = process.argv[2];
if (!modules) {
  console.error('usage: node query.mjs NODE_MODULES_DIR < query.sql');
  process.exit(2);
}
const require = createRequire(join(resolve(modules), 'query.cjs'));
const { DuckDBInstance } = require('@duckdb/node-api');

const sql = readFileSync(0, 'utf8');
const db = await DuckDBInstance.create(':memory:');
const conn = await db.connect();
const reader = await conn.runAndReadAll(sql);
const rows = reader.getRowObjectsJS();
const json = JSON.stringify(rows, (_, v) => {
  if (typeof v === 'bigint') {
    return Number.isSafeInteger(Number(v)) ? Number(v) : v.toString();
  }
  return v;
});
process.stdout.write(json + '\n');
