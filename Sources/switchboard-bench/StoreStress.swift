enum StoreStress { static func run(_ args: [String]) throws {} }
