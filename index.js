// n8n loads this package through the `n8n` block of package.json (the dist/ files it lists);
// this file is not part of the published package and exports nothing n8n uses.
module.exports = {};
