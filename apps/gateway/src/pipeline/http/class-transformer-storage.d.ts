/**
 * Types for class-transformer's metadata storage, which its index does not export (0.5.1): the
 * compiled DTO builder reads it to know which classes have no transformation of their own.
 */
declare module 'class-transformer/cjs/storage' {
  import type { MetadataStorage } from 'class-transformer/types/MetadataStorage';

  export const defaultMetadataStorage: MetadataStorage;
}
