'use strict';
// Under `npm run test:compat` on n8n-core before 1.9x: the Logger the engine takes from its
// container lives in n8n-core itself, not yet in @n8n/backend-common.
module.exports = { Logger: require('n8n-core').Logger };
