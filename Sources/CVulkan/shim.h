// Declarations only: the backend loads every entry point from libvulkan.so.1 at run time (VulkanLoader.swift).
#define VK_NO_PROTOTYPES
#include <vulkan/vulkan.h>
