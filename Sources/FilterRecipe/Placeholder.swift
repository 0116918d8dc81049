// Filled by later work.
