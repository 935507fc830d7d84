// SPDX-License-Identifier: GPL-3.0-or-later
#include "estimate/OperatorArguments.h"

namespace gpumem::estimate {

c10::ArrayRef<const c10::IValue> operatorArguments(const at::RecordFunction &call)
{
    const c10::ArrayRef<const c10::IValue> inputs = call.inputs();
    const auto schema = call.operator_schema();
    if (!schema)
        return inputs;
    const std::size_t count = schema->arguments().size();
    return inputs.size() > count ? inputs.slice(inputs.size() - count) : inputs;
}

} // namespace gpumem::estimate
