// What other modules may ask of the staff module (decision 053): the role a staff member holds
// for a client, as the console's guards read it.
export { roleIn } from './store.ts';
