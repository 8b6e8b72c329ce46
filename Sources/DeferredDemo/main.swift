import Deferred

print("DeferredDemo")
