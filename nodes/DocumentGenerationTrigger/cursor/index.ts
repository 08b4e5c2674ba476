/** The polling trigger's cursor (pure): the model of the list, the walks, the state. */
export * from './model';
export * from './walk';
export * from './state';
