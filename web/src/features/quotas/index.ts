// Quotas (issue 29, part 3): the user's storage meter in the sidebar.
export { StorageMeter, storageChanged, STORAGE_USAGE_QUERY_KEY } from './storage-meter';
