// Written by `npm run assets:names` from dashboard.css and dashboard.client.js; a unit test fails when it is stale.
export const stylesheetFile = 'dashboard.9c2b593ad5e9.css';
export const scriptFile = 'dashboard.d415f03b9261.js';
