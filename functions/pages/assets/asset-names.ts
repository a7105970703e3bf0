// Written by `npm run assets:names` from dashboard.css and dashboard.client.js; a unit test fails when it is stale.
export const stylesheetFile = 'dashboard.fb080baa2509.css';
export const scriptFile = 'dashboard.eeba39d14262.js';
