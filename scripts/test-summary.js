#!/usr/bin/env node
/* Last step of `npm test`: one closing line with the jest counts, "N passed, N failed". */
'use strict';
const fs = require('fs');
const path = require('path');

const file = path.resolve(__dirname, '..', '.jest-results.json');
const results = JSON.parse(fs.readFileSync(file, 'utf8'));
const skipped = results.numPendingTests + results.numTodoTests;
console.log(
	`${results.numPassedTests} passed, ${results.numFailedTests} failed${skipped ? `, ${skipped} skipped` : ''}`,
);
process.exit(results.success ? 0 : 1);
