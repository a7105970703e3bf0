// Written by `npm run assets:names` from dashboard.css and dashboard.client.js; a unit test fails when it is stale.
export const stylesheetFile = 'dashboard.59a09d3f68bd.css';
export const scriptFile = 'dashboard.5164318880d5.js';
