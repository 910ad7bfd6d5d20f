import { defineStoreConformance } from './conformance';
import { createMemoryStore } from './memory';

defineStoreConformance(
  'memory',
  { open: async (now) => createMemoryStore({ now }) },
  { describe, test, expect, beforeAll, afterAll, beforeEach },
);
